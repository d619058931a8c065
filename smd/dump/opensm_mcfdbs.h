// opensm.mcfdbs (OpenSM's osm_dump.c, written with the LFT dump and after multicast changes): for every
// switch that forwards at least one MLID, in OpenSM's GUID-table order (opensm_order.h),
//
//   <empty line>
//   Switch 0x<node GUID, 16 hex>
//   LID    : Out Port(s)
//   0x<MLID, 4 uppercase hex> : 0x<port, 3 uppercase hex>  0x<port>  ...
//
// one line per MLID, ascending, its ports ascending, each port written as " 0x%03X " (so two spaces
// between ports and one at the end of the line); port 0 means the switch itself is a member. A switch
// that forwards no MLID is not listed, and a fabric without multicast trees gives an empty file.
#pragma once

#include <string>

#include "routing/mcast/mcast_tables.h"
#include "routing/model/topology.h"

namespace smd::dump {

/// The opensm.mcfdbs text of `tables` for the switches of `topo` (trees of switches `topo` does not
/// have are left out). O(switches x MLIDs).
std::string opensm_mcfdbs(const Topology& topo, const McastTables& tables);

}  // namespace smd::dump
