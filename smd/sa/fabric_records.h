// The SA records that describe the fabric as the last sweep left it (IBA vol. 1, 15.2.5): NodeRecord,
// PortInfoRecord, LinkRecord, SwitchInfoRecord, LinearForwardingTableRecord and SMInfoRecord
// (GUIDInfoRecord: guid_info_records.h). Each handler enumerates its records from the SaSnapshot and matches them on the request's
// ComponentMask; Get/GetTable rules are the RecordCollector's. Pure: no I/O, no clock.
#pragma once

#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"

namespace smd::sa {

/// NodeRecord: one per CA port with a LID (NodeInfo's PortGUID and LocalPortNum are that port's) and one
/// per switch.
SaAnswer answer_node_records(const SaSnapshot& snap, const SaQuery& q);
/// PortInfoRecord: every port whose PortInfo the sweep read, under its endport's LID (a switch's LID for
/// each of its ports). M_Key shows as 0 to untrusted requesters. Options bit 7 / 6 turn CapabilityMask /
/// CapabilityMask2 matching into "every requested bit set", and so does AttributeModifier bit 31 for
/// CapabilityMask (OpenSM's convention: saquery -s, srp_daemon).
SaAnswer answer_port_info_records(const SaSnapshot& snap, const SaQuery& q);
/// LinkRecord: both directions of every cable between two ports with LIDs.
SaAnswer answer_link_records(const SaSnapshot& snap, const SaQuery& q);
/// SwitchInfoRecord: every switch's SwitchInfo as read and acknowledged.
SaAnswer answer_switch_info_records(const SaSnapshot& snap, const SaQuery& q);
/// LinearForwardingTableRecord: every block of every switch's programmed LFT.
SaAnswer answer_lft_records(const SaSnapshot& snap, const SaQuery& q);
/// SMInfoRecord: this SM and the SMs it knows; SM_Key shows as 0 to untrusted requesters.
SaAnswer answer_sm_info_records(const SaSnapshot& snap, const SaQuery& q);

}  // namespace smd::sa
