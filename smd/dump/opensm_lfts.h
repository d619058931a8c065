// opensm-lfts.dump (OpenSM's osm_dump.c, written when its log flags include ROUTING): every switch's LFT,
// one block per switch in OpenSM's GUID-table order (opensm_order.h):
//
//   Unicast lids [0-<top>] of switch Lid <switch LID> guid 0x<node GUID, 16 hex> ('<description>'):
//   0x<LID, 4 lowercase hex> <port, 3 decimal> # <type> portguid 0x<port GUID, 16 hex>: '<description>'
//   ...                                          (or "# unknown node and type" for a LID no port holds)
//   <top> lids dumped
//
// Every LID 0..top whose entry is a port of the switch (0..NumPorts) is listed; entries of 0xFF (no route)
// are left out. `top` is the switch's LinearFDBTop as smd programs it. Parsers of this file (and OpenSM's
// `file` routing engine, which reads it back) see smd's routes in OpenSM's layout.
#pragma once

#include <ostream>
#include <string>

#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd::dump {

/// The opensm-lfts.dump text of `tables` on `topo` with LIDs `lids` (a switch without an LFT prints its
/// header with top 0). O(switches x LIDs).
std::string opensm_lfts(const Topology& topo, const LidMap& lids, const RoutingTables& tables);

/// The same text written to `out` one switch at a time: at most one switch's block (about 70 bytes per
/// LID) is held in memory. The string above of a 49k-LID subnet of 3,840 switches would be 13 GB; `smd
/// plan --opensm-lfts` writes its file with this.
void write_opensm_lfts(std::ostream& out, const Topology& topo, const LidMap& lids, const RoutingTables& tables);

}  // namespace smd::dump
