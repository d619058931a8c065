// opensm-sl2vl.dump (OpenSM's osm_dump.c, written with the LFT dump when QoS is on or the routing engine
// sets SL2VL): one block per port in OpenSM's port-GUID-table order (opensm_order.h; a switch is one
// entry, under its port-0 GUID), each
//
//   <type> 0x<port GUID, 16 hex>, base LID <decimal>, "<description>"
//   #in out : 0  1  2  3  4  5  6  7  8  9  10 11 12 13 14 15
//   #--------------------------------------------------------
//   <in, %-3d> <out, %-3d> : then, per SL 0..15, " %-2d" of its VL
//   #--------------------------------------------------------
//   <empty line>
//
// A switch lists, for every cabled out port ascending, every in port 0..NumPorts (its own port 0
// included); a CA or router port lists one row, in 0 out 0. Only ports with a LID are listed (the ports
// OpenSM has in its port table are those the sweep brought up).
#pragma once

#include <string>

#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/qos/sl2vl_lookup.h"

namespace smd::dump {

/// The opensm-sl2vl.dump text of the SL2VL tables `sl2vl` gives every port of `topo`. O(switch ports^2).
std::string opensm_sl2vl(const Topology& topo, const LidMap& lids, const Sl2VlLookup& sl2vl);

}  // namespace smd::dump
