// Adaptive-routing groups for the up*/down* engines (updn, ftree): for every switch and destination LID
// the output ports on shortest up*/down*-legal paths (Schroeder et al., "Autonet", 1991: a route may go
// up then down, never down then up), deduplicated into distinct port sets the way switch AR group tables
// hold them (AdaptivePlan). A packet that picks any member at every hop still follows a shortest legal
// route, so adaptive forwarding adds no channel dependency that the up/down order forbids.
#pragma once

#include "routing/base/status.h"
#include "routing/engines/common/updn_paths.h"
#include "routing/model/adaptive.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// Build the AR plan of `tables` (already routed by an up*/down* engine over `order`).
/// Per destination switch d (not per LID): DestPaths from d gives every switch its shortest legal next
/// hops; that sorted port set is interned once per (switch, d) and shared by all of d's LIDs. Rules:
///   - at d itself the group is the static delivery port (CA port, or 0 for d's own LID);
///   - the static LFT port must be a member; when it is not (the engine took a route that is not a
///     shortest legal one), the group is just the static port;
///   - a switch LID that some switch of its component reaches only through a valley (two spines: no
///     legal path exists) gets static-only groups everywhere: extra up-ports at the valley switch would
///     add down->up dependencies that verify_tables never saw;
///   - kNoPort entries get no group (kNoArGroup).
/// group_of is sized [topo.size()][tables.lft[n].top() + 1] for switches, empty for CAs.
/// Errors: kInvalidInput when tables.lft is shorter than the topology. O(dst switches * (S + cables) +
/// S * LIDs).
Result<AdaptivePlan> build_ar_plan(const Topology& topo, const LidMap& lids, const UpDownOrder& order,
                                   const RoutingTables& tables);

/// Check `plan` against `tables` and `order` with distances computed here, not by DestPaths: down[v] =
/// all-down hops to the destination switch (BFS), dist[v] = down[v] where finite (a destination-based LFT
/// cannot tell how a packet arrived, so such a switch must go down), else 1 + the least dist of an
/// up-neighbour. For every routed LID and every group other than the static-only one {LFT port}: an
/// up-going member only where down[v] is infinite and to a switch with dist one less; a down-going member
/// only to a switch with down one less than dist[v]; at the destination switch only the delivery port.
/// Then no group that a down-going member leads into may hold an up-going port (no down->up turn), unless
/// both are static-only (the LFT's own valley, which verify_tables checks). Every group must contain the
/// static LFT port, and every routed (switch, LID) must have a group.
/// Errors: kVerifyFailed naming switch GUID, LID and port of the first failure.
Status verify_ar_plan(const Topology& topo, const LidMap& lids, const UpDownOrder& order, const RoutingTables& tables,
                      const AdaptivePlan& plan);

/// Build, verify and attach the plan to tables.adaptive: what updn and ftree call when
/// RoutingOptions::adaptive is set. Errors: those of build_ar_plan / verify_ar_plan, context "AR plan".
Status attach_ar_plan(const Topology& topo, const LidMap& lids, const UpDownOrder& order, RoutingTables& tables);

}  // namespace smd
