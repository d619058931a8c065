// The per-port inputs of a balancing engine's port choice (OpenSM's hop_weights_file,
// port_search_ordering_file, port_prof_ignore_file, port_profile_switch_nodes) resolved on one fabric, and
// the min-hop table they change. OpenSM applies them in its unicast manager (the LID matrices and
// osm_switch_recommend_path), that is to minhop; its updn routes on up*/down* hop counts of its own and its
// dfsssp on Dijkstra weights of its own, neither of which reads these files. smd's minhop does the same.
//
// Hop weights: leaving switch s by port p costs w(s,p) (1 when unlisted), so the "minimum hops" from s to a
// switch d is the least total weight of a path, and the ports of s on a shortest path to d are those p with
// w(s,p) + D(peer(p), d) == D(s, d). With every weight 1 this is the plain hop count. A heavy port is left
// out of every destination that has a lighter way: "steer routes off a port" without unplugging it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/engines/common/switch_port_files.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// The inputs by SwitchGraph flat slot (graph.slot(s, p)); an empty vector means the input was not given.
struct BalancingPorts {
  std::vector<std::uint8_t> weight;        ///< [slot] hop weight 1..255
  std::vector<std::uint8_t> search_rank;   ///< [slot] place of the port in its switch's search order, 0 first
  std::vector<std::uint8_t> prof_ignored;  ///< [slot] 1: routes out of this port are not counted
  /// What the files named that this fabric lacks (a GUID that is no switch, a port above its NumPorts), one
  /// note per file, for RoutingTables::notes; such lines are skipped, as in OpenSM.
  std::vector<std::string> notes;
};

/// Resolve the three files' lines on `graph` (any of them may be empty). `engine` names the policy section in
/// the notes ("routing.minhop.hop_weights_file: ..."). A switch without a search-order line, and the ports a
/// line leaves out, keep port order after the listed ones. O(slots + lines).
BalancingPorts resolve_balancing_ports(const Topology& topo, const SwitchGraph& graph, std::string_view engine,
                                       std::span<const HopWeight> weights, std::span<const PortSearchOrder> orders,
                                       std::span<const SwitchPort> ignored);

/// Least total hop weight between every ordered pair of switches (`weight` by slot as in BalancingPorts; cables
/// to CAs do not matter). Dijkstra towards each destination over the cables reversed, destinations spread over
/// the hardware threads: O(S * L log S) for S switches and L cables, 4 bytes per ordered pair.
class WeightedHopTable {
 public:
  /// "Not reachable".
  static constexpr std::uint32_t kUnreachable = 0xFFFFFFFFu;

  static WeightedHopTable build(const SwitchGraph& graph, std::span<const std::uint8_t> weight);

  /// Least total weight from switch a to switch b (0 when a == b).
  std::uint32_t dist(SwitchIndex a, SwitchIndex b) const { return dist_[static_cast<std::size_t>(a) * n_ + b]; }
  /// Row a: from a to every switch.
  std::span<const std::uint32_t> row(SwitchIndex a) const {
    return {dist_.data() + static_cast<std::size_t>(a) * n_, n_};
  }

 private:
  std::size_t n_ = 0;
  std::vector<std::uint32_t> dist_;
};

}  // namespace smd
