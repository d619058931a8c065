// The SL2VL half of VL-layered routing (DFSSSP; SA-NOTES §3): a packet of layer L is sent on SL
// sl_of_layer(L) and must travel on VL vl_of_layer(L) at every hop, or two layers share a VL and the
// per-layer acyclicity verify_tables proved says nothing. This checks the SL2VL tables a plan would
// program (IBA 14.2.5.8, SLtoVLMappingTable per (input port, output port)) against the layering.
#pragma once

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/qos/sl2vl_lookup.h"

namespace smd {

/// For every route (source switch s, DLID d) of layered `tables` (ok at once when tables.layering is
/// null), with L = layering->layer_of(s, d), SL = sl_of_layer(L), VL = vl_of_layer(L) (or, when the engine
/// set per-hop tables, VL = layering->vl_at(node, in, out, L) at each hop), the SL2VL entry
/// `sl2vl.table(node, in, out)[SL]` must be VL at every hop of the route:
///   - each CA or router port with a LID cabled to s (not d's owner): (that node, in 0, its port);
///   - s itself: in 0 (switch-originated traffic) and in = each such CA-facing port, out = the first port;
///   - every later switch: in = the arrival port, out = the departure port, the last switch's port down
///     to the CA included. Delivery to a switch's own port 0 is not a physical hop and is not checked.
/// Routes the LFTs do not deliver are skipped (verify_tables reports them).
/// Errors: kVerifyFailed naming the first mismatch (source switch order, then LID order): node GUID,
/// description, DR path, in and out port, SL, the VL wanted and the table's VL, and the number of
/// mismatching hops over all routes. Cost O(S * LIDs * (hops + CA ports per switch)), single thread.
Status verify_sl2vl_layers(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                           const Sl2VlLookup& sl2vl);

}  // namespace smd
