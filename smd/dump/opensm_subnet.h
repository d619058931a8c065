// opensm-subnet.lst (OpenSM's osm_dump.c, written after every heavy sweep): one line per cabled port
// (ports 1..NumPorts with a peer) of every node, nodes in OpenSM's GUID-table order (opensm_order.h):
//
//   { <SW|CA|Rt>[-SM] Ports:<NumPorts, 2 hex> SystemGUID:<16 hex> NodeGUID:<16 hex> PortGUID:<16 hex>
//     VenID:<6 hex> DevID:<4 hex> Rev:<8 hex> {<description>} LID:<4 hex> PN:<port, 2 hex> }
//   { ...the peer, the same fields, VenID with 8 hex digits... } PHY=<1x|4x|8x|12x|??> LOG=<ACT|ARM|INI|DWN>
//   SPD=<2.5|5|10|14|25|??>
//
// all on one line. GUIDs in lowercase hex, the rest uppercase. A node's LID is its switch port 0's or
// its port's own; "-SM" marks a node whose (port 0 or own) port holds the master SM's LID as MasterSMLID
// and as its own LID. PHY, LOG and SPD are this side's PortInfo as the last sweep knows it; SPD is the
// extended speed when the link runs one. Three quirks of OpenSM 3.3 kept on purpose, so a parser written
// against OpenSM's file reads smd's: the peer's VenID has 8 digits; the peer's DevID is printed as OpenSM
// computes it on a little-endian host (a 32-bit byte swap of the 16-bit field: 0x1003 reads "10030000",
// 0 reads "0000"); and whether SPD shows the extended speed follows the peer's LID port's
// CapabilityMask (IsExtendedSpeedsSupported), not this port's.
#pragma once

#include <string>

#include "routing/base/status.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::dump {

/// The opensm-subnet.lst text of the snapshot's fabric. Errors: kInvalidInput when the snapshot has no
/// swept fabric yet (no topology, LIDs or port view). O(ports).
Result<std::string> opensm_subnet_list(const FabricSnapshot& snap);

}  // namespace smd::dump
