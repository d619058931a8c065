// MulticastForwardingTableRecord (SA attribute 0x0017, IBA vol. 1, 15.2.5.8): one record per (switch, MFT
// block, position) with the 32 PortMasks of that block, from the tables the SM programmed (SaMfts).
//
//   switches  those whose SwitchInfo MulticastFDBCap is not 0, under their port-0 LID
//   blocks    0 .. (highest MLID given out - 0xC000) / 32 (OpenSM: the blocks in use); none when no MLID
//   positions 0 .. NumPorts / 16 (16 ports per PortMask word)
//   matching  ComponentMask: LID (bit 0), Position (1), BlockNum (3), the rest as the RecordCollector does
// Get / GetTable only; pure.
#pragma once

#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"

namespace smd::sa {

/// The MulticastForwardingTableRecords matching `q`. NO_RECORDS / TOO_MANY_RECORDS for a Get as usual;
/// a snapshot without SaMfts (no multicast yet) has none.
SaAnswer answer_mft_records(const SaSnapshot& snap, const SaQuery& q);

}  // namespace smd::sa
