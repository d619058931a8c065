// Local repair after lost links (issue 20: "route only what broke and verify only what changed"): the
// previous tables are kept wherever their route still delivers, and only the (switch, LID) entries whose
// route broke are routed again, on the fabric as it is now, without a fresh engine run and without a
// whole-fabric verification. repair_tables (repair.h) is the fallback: it needs a fresh engine run and a
// full verify_tables, ~10x the work on the 1728-host tree.
//
// For each LID, the route of every switch is classified (updown_check.h) with the previous entries. A LID
// whose routes all deliver is left exactly as it was. Otherwise the broken switches pick new next hops by
// Dijkstra from the switches whose route works, shortest resulting route first, then the old port (no
// write), then the least-loaded port (CA LIDs routed out of it): first accepting only next hops that keep
// the route up*/down* legal, then, for switches with no legal route left (a spine above a leaf that lost
// its only up-link to that spine's pod), any delivering one. Every switch then points at a switch decided
// before it, so the LID's routes form a tree towards its owner: no loop, no drop. The changed LID is then
// classified again, which is its verification. If a switch with CAs now routes through such a spine, the
// repair runs once more with every switch whose route is not legal counted as broken, so that they go
// around it where they can.
//
// Acceptance: every route delivers and every route from a switch with CAs is legal, which proves the
// CA-injected channel-dependency graph acyclic (updown_check.h). One case the per-route condition cannot
// cover: a leaf that lost its cable to a middle switch has no legal route left to that middle switch's
// own LID (the other middle switches of its pod share no spine with it), so it takes a valley through
// another leaf. Then, and only then, the host-injected channel-dependency graph is built and checked
// whole (channel_deps.h's source_dependencies: the graph of verify_tables' ca_deadlock_free, without its
// delivery checks, which the classification has done; stats.verified_fully). Anything this cannot prove, including
// previous tables whose host-to-host routes were legal only under another order, declines with the
// reason, and the caller runs the engine chain and repair_tables instead.
#pragma once

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/route_proof.h"
#include "routing/model/topology.h"
#include "routing/verify/repair.h"

namespace smd {

/// Tables for `now` (indexed by its NodeIndex) from `previous` (computed on `before`, switches matched by
/// node GUID), `now` having lost cables or nodes only (topology_gained_links(before, now) is false).
/// engine and ca_order (mapped by GUID) come from `previous`; deadlock_free is set only when every route,
/// switch-originated ones included, is legal (a sufficient condition: a spine-to-spine valley the
/// previous engine proved harmless with a full cycle check reads as "not proved" here). stats: entries_repaired =
/// entries that changed. `previous_proof`, when given, is the RouteProof of `previous` on `before`
/// (prove_tables, or the proof_out of the repair that made `previous`): a LID whose entries avoid every
/// channel `now` lost or changed and whose destination did not move keeps its verdict unclassified, if the
/// switch order is the same. `proof_out` receives the RouteProof of the result on `now`. Errors (kDeclined,
/// with the reason): layered or adaptive previous tables, a switch of `now` without a previous table or with
/// LinearFDBTop below lids.max_lid() or at or above its LinearFDBCap, switches split into islands, CA routes
/// that are not up*/down* legal before or after the repair. Cost O(switches x LIDs classified) class walks
/// (spread over the hardware threads) plus O(B log B x ports) per changed LID with B broken switches and
/// O(switches x LIDs) array passes; memory O(switches + ports + LIDs).
Result<RoutingTables> repair_locally(const Topology& before, const RoutingTables& previous, const Topology& now,
                                     const LidMap& lids, RepairStats& stats, const RouteProof* previous_proof = nullptr,
                                     RouteProof* proof_out = nullptr);

}  // namespace smd
