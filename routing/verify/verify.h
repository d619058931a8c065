// The one verifier every routing result passes before it is programmed: follows the LFTs from every
// switch to every LID in use, checks LinearFDBTop against the LIDs and LinearFDBCap, and builds the
// channel-dependency graph (Dally & Seitz 1987: routing on one VL is deadlock free iff it is acyclic).
#pragma once

#include <cstdint>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// The channel-dependency graph of one virtual layer (VlLayering): the routes on that layer, each with
/// its whole switch path from its source switch, as one VL sees them.
struct LayerCdg {
  std::uint64_t routes = 0;  ///< (source switch, LID) routes on this layer (the LID's own switch included)
  std::size_t channels = 0;  ///< switch-to-switch channels with an outgoing dependency on this layer
  std::uint64_t edges = 0;   ///< distinct channel -> channel dependencies on this layer
  bool acyclic = false;      ///< no cycle: routing on this layer's VL cannot deadlock
  bool ca_acyclic = false;   ///< the same, counting only routes whose source switch has CAs

  bool operator==(const LayerCdg&) const = default;
};

/// What the verifier saw; figures an operator wants next to "ok".
struct VerifyReport {
  std::size_t switches = 0;         ///< switches whose LFT was checked
  std::size_t lids = 0;             ///< LIDs in use that some switch can reach (routed LIDs)
  std::size_t unroutable_lids = 0;  ///< LIDs whose port is not cabled to a switch (nothing can route them)
  std::uint64_t routes = 0;         ///< (switch, LID) routes followed to their owner
  /// Channel-dependency graph over all routes is acyclic: on one VL, or, when the tables are layered,
  /// on every layer (each layer's graph holding only that layer's routes).
  bool deadlock_free = false;
  /// The same, counting only routes that packets injected by CAs take (to any LID). Switch-originated
  /// traffic between switch LIDs is what often breaks the full graph (e.g. minhop on a fat tree routes
  /// spine-to-spine down and up again); this figure says whether host traffic alone is safe.
  /// Layered tables: every layer's graph of the routes from switches that have CAs is acyclic.
  bool ca_deadlock_free = false;
  /// Single-VL figures, whether or not the tables are layered: all routes on one VL.
  bool single_vl_deadlock_free = false;
  std::size_t cdg_channels = 0;  ///< directed switch-to-switch channels with an outgoing dependency
  std::uint64_t cdg_edges = 0;   ///< distinct channel -> channel dependencies
  /// Layers the tables use: RoutingTables::layering->layers(), 1 when not layered; with per-hop SL2VL
  /// (torus-2QoS) 1 + the highest VL a switch-to-switch hop takes.
  std::size_t layers = 1;
  bool layered = false;  ///< tables.layering was set
  /// [layer] its graph; not layered: one entry, the single-VL graph (routes = `routes`). Per-hop SL2VL:
  /// [VL] its share of the virtual-channel graph (routes = hops on that VL; acyclic = no cycle found
  /// through it), whose whole verdict is deadlock_free.
  std::vector<LayerCdg> layer_cdg;
  /// Hops = cables from source CA port to destination CA port (2 for two hosts on one leaf), over
  /// ordered pairs of distinct CA ports (base LIDs) that can reach each other.
  std::uint64_t ca_pairs = 0;
  unsigned max_hops = 0;
  double mean_hops = 0.0;
  /// CA LIDs (LMC LIDs included) routed out of each switch up-port. An up-port leads to a switch farther
  /// from the CAs (BFS level from the switches that have CAs). Zero ports -> all three are 0.
  std::size_t up_ports = 0;
  std::uint32_t up_port_lids_max = 0;
  std::uint32_t up_port_lids_min = 0;
  /// Largest (max - min) of CA LIDs across the up-ports of one switch: 0 or 1 is a perfect spread.
  std::uint32_t up_port_lids_worst_spread = 0;
};

/// Check `tables` against `topo` and `lids`:
///   - an LFT for every switch, top() >= lids.max_lid() and top() < lft_cap (when lft_cap != 0);
///   - from every switch, every LID whose owner is cabled to a switch in the same component reaches the
///     owner: each hop's port is cabled and leads to a switch, port 0 only at the LID's own switch, the
///     last switch uses the port cabled to the owning CA port, no kNoPort (black hole), no loop;
///   - if `require_deadlock_free`, the channel-dependency graph of all those routes is acyclic: every
///     switch is a source (switch-originated and switch-LID traffic included), not only CA-injected flows.
/// Layered tables (tables.layering non-null): the layering must cover lids.max_lid(); with
/// `require_deadlock_free` every layer's graph must be acyclic instead of the single-VL one. The route
/// (s, d) puts every consecutive channel pair of its whole path s -> ... -> owner of d on layer
/// layer_of(s, d): a packet keeps its SL, hence its VL, end to end, so the suffix of that path is on this
/// layer even where the route of an intermediate switch to d is on another one.
/// Errors: kVerifyFailed, naming the switch GUID, its DR path (format_dr_path) and the LID of the first
/// problem (lowest LID), plus the count of failing routes; kInvalidInput if `tables.lft` is too short.
/// Cost O(S * LIDs) with memoised walks (a verified (switch, LID) is never walked twice), spread over
/// all hardware threads; memory O(S * 64 + S * ports). Layered tables add O(S * LIDs * hops) walks (each
/// route whole, no memo: layers differ along a path) and O(layers * S * ports) memory per thread.
Result<VerifyReport> verify_tables(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                   bool require_deadlock_free);

}  // namespace smd
