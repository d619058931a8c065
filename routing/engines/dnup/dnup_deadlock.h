// dnup's own check of its tables before it hands them on: whether the routes packets from the CAs take close
// a cycle of channel dependencies (Dally & Seitz 1987; the verifier's rule, which an engine may not call:
// docs/architecture.md layering). dnup uses it to decide between the CA ranks' order and its fallback.
#pragma once

#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"

namespace smd {

/// Whether the routes from every switch to every LID 1..max_lid through `tables.lft` (indexed by NodeIndex)
/// leave the channel-dependency graph acyclic (all routes, as verify_tables checks a deadlock-free promise). A channel is a switch-to-switch
/// (switch, port); a route into a CA adds no dependency at its last switch; a walk stops at a switch it
/// already passed for that LID (a loop cannot hang it). O(LIDs * switches + slots), 32 bytes per slot.
bool dnup_routes_acyclic(const SwitchGraph& graph, const RoutingTables& tables, Lid max_lid);

}  // namespace smd
