// Verification of one LID's routes at a time, for a repair that changed only some LIDs (issue 20: "verify
// only what changed"). verify_tables builds the channel-dependency graph of every route; here deadlock
// freedom is proved instead by a sufficient condition that each route can be checked for on its own:
// every route is legal up*/down* (Schroeder et al., Autonet, 1991) under one strict total order of the
// switches. A dependency cycle would have to turn from a down channel to an up one somewhere, because
// channels that are all up (or all down) strictly climb (or descend) the order; a legal route never makes
// that turn, so a set of legal routes on one VL has an acyclic channel-dependency graph.
//
// The order: switches by (level, GUID), level = BFS hops from the nearest switch with CAs (the leaves of
// a fat tree are level 0). A move to a higher (level, GUID) is up. Fat-tree and up*/down* routes on a
// tree are legal under it; a spine-to-spine route through a valley is not (it is reported, not hidden:
// such routes are switch-originated, and LidRouteCheck::ca_legal below leaves them out, as verify_tables'
// ca_deadlock_free does).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "routing/model/lid_map.h"
#include "routing/model/route_proof.h"
#include "routing/model/topology.h"

namespace smd {

/// The up*/down* order of the switches of one SwitchGraph (see the header comment).
struct LevelOrder {
  std::vector<std::uint32_t> rank;   ///< [SwitchIndex] position in (level, GUID) order; larger = higher
  std::vector<std::uint8_t> has_ca;  ///< [SwitchIndex] 1 when a port is cabled to a CA or router
  /// Build it for `graph` of `topo`. O(switches log switches + channels). A switch that no switch with
  /// CAs reaches is ranked above every level (it carries no CA traffic).
  static LevelOrder build(const Topology& topo, const SwitchGraph& graph);
  bool up(SwitchIndex from, SwitchIndex to) const { return rank[to] > rank[from]; }
};

/// What a route from one switch to one LID is, as far as deadlock freedom goes.
enum class RouteClass : std::uint8_t {
  kUnknown,  ///< not judged yet
  kOnStack,  ///< being walked (a walk that meets it again is a loop)
  kDown,     ///< delivers, every switch-to-switch hop down (or none: the LID's own switch)
  kUpDown,   ///< delivers, up hops then down hops, at least one up
  kIllegal,  ///< delivers, but turns from down to up somewhere
  kBroken,   ///< does not deliver (a drop or a loop, lft_walk.h's hop rule)
};

/// The class of a route whose first hop goes from `from` to `to`, the rest being a route of class `rest`
/// (kDown, kUpDown or kIllegal; kBroken stays kBroken).
RouteClass extend_route(const LevelOrder& order, SwitchIndex from, SwitchIndex to, RouteClass rest);

/// The verdict on one LID over every switch.
struct LidRouteCheck {
  bool delivered = true;                 ///< every switch's route delivers (verify_tables' delivery rule)
  bool ca_legal = true;                  ///< routes from switches with CAs are all up*/down* legal
  bool legal = true;                     ///< every route is legal
  SwitchIndex first_broken = kNoSwitch;  ///< lowest switch whose route does not deliver
};

/// Classify the route of every switch of `graph` to `lid`, whose destination is `dst`, through `lfts` by
/// lft_walk.h's hop rule, memoised in `cls` (size num_switches(), reset here; cls[s] is switch s's class
/// afterwards) with `hops` (same size: switch-to-switch hops of a route that delivers, meaningless
/// otherwise). `stack` is scratch. Cost O(switches) per LID, no allocation once the scratch has grown.
/// dst.sw must not be kNoSwitch (an unroutable LID has nothing to check).
LidRouteCheck classify_lid_routes(const SwitchGraph& graph, const LevelOrder& order, const SwitchLfts& lfts, Lid lid,
                                  const LidTarget& dst, std::vector<RouteClass>& cls, std::vector<std::uint16_t>& hops,
                                  std::vector<SwitchIndex>& stack);

/// Switch node GUIDs of `graph` (of `topo`) by rank of `order`, lowest first: RouteProof::order.
std::vector<std::uint64_t> order_guids(const Topology& topo, const SwitchGraph& graph, const LevelOrder& order);

/// A RouteProof with the order of `order` and the destination of every LID of `targets` (lid_targets of
/// `topo`) that a switch delivers, and no verdict yet (every verdict 0).
RouteProof start_proof(const Topology& topo, const SwitchGraph& graph, const LevelOrder& order,
                       const std::vector<LidTarget>& targets);

/// RouteVerdict bits of one LID's check (kRouteProved included).
std::uint8_t verdict_bits(const LidRouteCheck& check);

/// classify_lid_routes of every LID in `lids` (each with targets[lid].sw != kNoSwitch), spread over the
/// hardware threads (each with its own scratch; the tables are only read): verdict[lid] = verdict_bits.
/// `verdict` must cover every LID in `lids`. Cost O(switches x |lids| / threads).
void prove_lids(const SwitchGraph& graph, const LevelOrder& order, const SwitchLfts& lfts,
                const std::vector<LidTarget>& targets, std::span<const Lid> lids, std::vector<std::uint8_t>& verdict);

/// The RouteProof of `tables` on `topo` for every LID 1..lids.max_lid() that some switch can deliver
/// (others stay 0), under LevelOrder::build(topo, ...). A switch past tables.lft reads as having no table.
RouteProof prove_tables(const Topology& topo, const RoutingTables& tables, const LidMap& lids);

}  // namespace smd
