// Whether the SM can route the fabric with a set of drains, asked before `smctl drain` records them
// (issue 46 item 3): the same decision the next heavy sweep makes (routing/whatif/fabric_loss.h
// reroute_after_loss: route_after_change's local repair, else the engine chain and the minimal repair),
// on the fabric of the last programming sweep with the drains and health isolation's requests applied as
// the sweep applies them (routing/isolation/routed_topology.h). A drain no engine of the chain can route
// is refused unless forced; a forced one is routed by the sweep's fallback (kDrainFallbackEngine, routed_topology.h).
//
// Cost: one route_after_change on the SM's thread: a local repair (milliseconds) when it accepts, else an
// engine run and its verification (about as long as a repair sweep's routing phase).
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "config/policy.h"
#include "routing/base/status.h"
#include "routing/isolation/cable_isolation.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// What the last programming sweep left: the discovered fabric, the one its tables were routed on
/// (drained and isolated cables gone), its LIDs and tables, and the policy's routing section. All from
/// one sweep (SweepRunner::topology, routed_topology_snapshot, lids_snapshot, tables_snapshot).
struct DrainRouteInput {
  std::shared_ptr<const Topology> discovered;
  std::shared_ptr<const Topology> routed;
  std::shared_ptr<const LidMap> lids;
  std::shared_ptr<const RoutingTables> tables;
  std::vector<PortKey> health;  ///< health isolation's requests (SweepRunner::isolation_requests)
  RoutingPolicy routing;
};

/// Route `discovered` with `drains` (ends on it) and the health requests as the next heavy sweep would.
/// Ok when it routes; else the error of route_after_change (kDeclined/kVerifyFailed listing each engine's
/// failure). Ok as well when nothing is programmed yet (no tables to start from: the sweep decides).
Status drain_routes(const DrainRouteInput& in, std::span<const CableEnd> drains);

}  // namespace smd
