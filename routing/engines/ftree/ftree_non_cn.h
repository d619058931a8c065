// Routes of ftree's non-compute-node CA ports (OpenSM's I/O nodes and the other ports outside its CN list):
// routed after every compute node, so they never disturb the CN balance that shift permutations rely on,
// and allowed on any switch of the tree, spines included. A route to such a port may take "reverse hops":
// down-then-up turns, each leaving up*/down* once (OpenSM's max_reverse_hops for I/O nodes, 0 for others).
#pragma once

#include <cstdint>
#include <vector>

#include "routing/base/status.h"
#include "routing/engines/common/ca_destinations.h"
#include "routing/engines/ftree/ftree_levels.h"
#include "routing/model/hop_table.h"
#include "routing/model/lid_major_lfts.h"
#include "routing/model/topology.h"

namespace smd {

/// One non-CN CA port to route and how many reverse hops its routes may take.
struct NonCnDestination {
  CaDestination ca;
  unsigned reverse_hop_credit = 0;
  bool io = false;  ///< listed in routing.ftree.io_guids (only for the error message)
};

/// What routing the non-CN ports did, for the tables' notes and deadlock_free.
struct NonCnRouting {
  std::uint64_t reverse_routes = 0;  ///< (switch, LID) routes that take at least one down-then-up turn
  unsigned max_reverse_hops_used = 0;
};

/// Route every LID of every port of `dests` from every switch, writing `staged` rows. Per LID, each switch
/// takes the route with the fewest reverse hops, then the fewest cables, then one whose first cable goes
/// down (a switch above it then needs no turn); a switch's reverse hops are those of its whole path, so a
/// packet entering anywhere on it takes at most the credit. Among equal choices the cable that the fewest
/// non-CN LIDs were routed over so far. Levels (`t`) say which cable goes up.
/// Errors: kDeclined naming the port, the first switch that cannot reach it within its credit, and the
/// reverse hops it would need. Cost O(LIDs * cables * log switches).
Result<NonCnRouting> route_non_cns(const Topology& topo, const SwitchGraph& graph, const FatTreeLevels& t,
                                   const std::vector<NonCnDestination>& dests, LidMajorLfts& staged);

}  // namespace smd
