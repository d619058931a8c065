// The fabric view's data (issue 46 item 1): the JSON the browser page at / draws from, served under
// /api/v1/ by the metrics endpoint (view_routes.h). Pure reads of one frozen snapshot, like requests.h; the
// pieces smctl already answers (status, a node, counters, port marks, the SA) come from the same builders,
// so the view and `smctl --json` never disagree on a field.
//
// Layout: a switch's tier is its up*/down* rank as the updn engine computes it (routing/engines/updn/
// updn_roots.h: roots are the spines of a fat tree, else the centre of the graph), turned upside down so
// CAs are tier 0 and leaves tier 1. When every CA-attached switch sits at the same rank the fabric is a
// tree ("tiers": rows, spines on top); otherwise (torus, mesh, random graph) the page draws "rings":
// switches on concentric circles by hop distance from the centre switch.
//
// Cable state, the first that applies: "isolated" (health marked it and routes go around it), "unhealthy"
// (marked, kept in use), "drained" (`smctl drain`), "errors" (an error counter of either end moved in the
// PerfMgr's last interval), "traffic" (data moved in that interval), "idle".
#pragma once

#include <cstddef>
#include <string_view>

#include "routing/base/status.h"
#include "smd/protocol/control_protocol.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::control {

/// Version of the view's JSON API (the /api/v1/ prefix and every answer's "version"). Renaming or removing
/// a field bumps it; adding one does not.
inline constexpr int kViewApiVersion = 1;

struct FabricViewOptions {
  /// Above this many CAs, CAs are not listed one by one: each switch carries the count of its CAs and a
  /// summary of their cables (states counted, the worst first), and every switch and switch-switch cable is
  /// still listed. 1728 hosts drawn one by one are a grey band, not a picture.
  std::size_t max_cas_drawn = 256;
};

/// {layout: "tiers"|"rings", tiers: highest tier + 1, aggregated: bool, counts: {switches, cas, links,
/// switch_links, states: {state: cables}}, perf: {passes, interval_s, end?} or null,
/// nodes: [{guid, name, type: "switch"|"ca", tier, lid, cas?, ca_links?: {count, worst, states}}],
/// links: [{a: {guid, port}, b: {guid, port}, state, errors (error-counter increments, both ends, last
/// interval), rate (bytes/s, the larger direction), reason?}]}. `nodes` lists switches in tier then GUID
/// order, then CAs (none when aggregated); links between two listed nodes only. Empty lists before the
/// first sweep.
Json fabric_view_json(const FabricSnapshot& snap, const FabricViewOptions& options = {});

/// One node's page: node_json (requests.h: GUID, type, LIDs, DR path, ports with state and peer) plus, per
/// port, "mark" (the ports_json row of an unhealthy port), "counters" (the counters_json row, null when the
/// PerfMgr is off or has not read it), "pkeys" (["0x8001 (tenant)", ...]: the P_Key table the SM planned for
/// it, named by the partition policy); and "drained" (the drains naming this node). Errors: kInvalidInput
/// as resolve_node (unknown or ambiguous name, no fabric yet).
Result<Json> node_view_json(const FabricSnapshot& snap, std::string_view name);

}  // namespace smd::control
