// Minimal repair of routing tables after the fabric lost links or nodes (issue 6: "writes only the LFT
// blocks that changed"). A fresh engine run on a degraded fat tree reshuffles far more routes than the
// failure broke (on the 512-host k=8 tree, one leaf up-link: ~1500 LFT blocks); here every route that
// still delivers is kept, and only the switches whose old route to a LID is now broken take the fresh
// engine's entry for that LID.
//
// Why the result delivers: a switch whose old route still works reaches the LID through switches whose
// old routes also work, so it never enters a broken switch again; a broken switch follows the fresh
// (loop-free, delivering) route until it meets a working switch. On an up*/down* or fat-tree routing
// both halves are up/down-legal, so a fresh prefix that goes down meets only ancestors of the
// destination, whose old route is down only; the caller still verifies the result, including the
// channel-dependency graph, and falls back to the fresh tables if it fails.
#pragma once

#include <cstddef>

#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// True if `now` has a cable `before` did not have (matched by node GUID and port number on both ends),
/// or a node it did not have: capacity came back, so a full re-route (re-balancing) is worth its writes.
bool topology_gained_links(const Topology& before, const Topology& now);

struct RepairStats {
  std::size_t entries_kept = 0;      ///< (switch, LID) entries taken over from the previous tables
  std::size_t entries_repaired = 0;  ///< entries whose old route was broken, taken from `fresh`
  std::size_t lids_touched = 0;      ///< LIDs with at least one repaired entry
  bool verified_fully = false;       ///< repair_locally checked the whole host-injected CDG (switch-LID valleys)
  std::size_t lids_proved = 0;       ///< LIDs repair_locally classified (the others kept their RouteProof verdict)
};

/// Tables for `now`: `previous` (computed on `before`, switches matched by node GUID) wherever the old
/// route from that switch to that LID still delivers on `now`, `fresh` (computed on `now` with `lids`)
/// elsewhere. Engine name, CA order, deadlock promise and AR plan come from `fresh`. Shapes: `fresh.lft`
/// is indexed by `now`'s NodeIndex, `previous.lft` by `before`'s. Cost O(switches x LIDs).
RoutingTables repair_tables(const Topology& before, const RoutingTables& previous, const Topology& now,
                            const LidMap& lids, const RoutingTables& fresh, RepairStats& stats);

}  // namespace smd
