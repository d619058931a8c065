// The channel-dependency check for routes whose VL changes hop by hop (torus-2QoS's per-port-pair SL2VL,
// VlLayering::hop_sl2vl): the graph's vertices are virtual channels (VL, switch-to-switch channel), and a
// route that leaves switch s by p on VL v and switch t by q on VL w adds the dependency (v, s-p) ->
// (w, t-q). Routing is deadlock free iff that graph is acyclic (Dally & Seitz 1987, with VLs as virtual
// channels); the per-layer check of dfsssp and lash is the special case where v == w along every route.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "routing/model/vl_layers.h"

namespace smd {

/// One VL's share of the virtual-channel graph.
struct HopVlCdg {
  std::uint64_t hops = 0;      ///< switch-to-switch hops routed on this VL
  std::size_t channels = 0;    ///< channels of this VL with an outgoing dependency
  std::uint64_t edges = 0;     ///< dependencies leaving a channel of this VL
  bool acyclic = true;         ///< no cycle found through a channel of this VL
  bool ca_acyclic = true;      ///< the same for the routes from switches with CAs only
};

/// The whole graph's verdict and the first cycle found.
struct HopVlDeps {
  std::vector<HopVlCdg> vls;  ///< [VL] 0..vls_used-1
  bool deadlock_free = true;
  bool ca_deadlock_free = true;
  /// A cycle as (VL, flat slot of SwitchGraph) pairs in order; empty when acyclic.
  std::vector<std::pair<std::uint8_t, std::uint32_t>> cycle;
};

/// Walk every route (source switch, LID of `targets`) through `lft` ([switch] tables) on `layering`'s SL
/// and record each hop's dependency with VLs from layering.vl_at (the first switch's in port counted as
/// 0, an end port). Only routes within one component (`comp`) are walked; `from_cas[s]` marks switches
/// with CA ports for ca_acyclic. Cost O(S * LIDs * hops) single thread, memory O(VLs * slots + edges).
HopVlDeps hop_vl_dependencies(const SwitchGraph& graph, const std::vector<const Lft*>& lft,
                              const std::vector<LidTarget>& targets, const std::vector<std::uint32_t>& comp,
                              const std::vector<bool>& from_cas, const VlLayering& layering);

}  // namespace smd
