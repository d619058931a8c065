// The SA records of what the ports hold in their own tables (IBA vol. 1, 15.2.5): PKeyTableRecord
// (trusted requesters only, as OpenSM: REQ_INVALID otherwise), SL2VLTableRecord and VLArbTableRecord.
// The blocks come from TableCache (read from the ports on demand); a block not read yet goes into
// `missing` and its record is left out of this pass: the agent asks for the missing blocks and answers
// again when they are in (or given up, which leaves that record out for good).
//
//   PKeyTableRecord   CA port: blocks 0..PartitionCap/32 (NodeInfo); switch port 0 the same, external
//                     ports up to SwitchInfo PartitionEnforcementCap. SMP AttrMod = block | port << 16.
//   SL2VLTableRecord  CA port: (in 0, out 0); switch: every (in 0..N, out 0..N). AttrMod = in << 8 | out.
//   VLArbTableRecord  every port, blocks 1-4 (1-2 low, 3-4 high). A block holding some of the port's
//                     VLArbLowCap / VLArbHighCap entries is read (AttrMod = block << 16 | port); a block
//                     beyond the caps (switch port 0 without VLs, a cap of 32 or less) is answered with an
//                     empty table without a read, as OpenSM answers every block. A LID that names a CA port
//                     names its port: OutputPortNum is then filled in, not matched (OpenSM, osmtest -f q).
#pragma once

#include <vector>

#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"
#include "smd/sa/table_cache.h"

namespace smd::sa {

/// Whether VLArbitrationTable block `block` (1..4; 1-2 low, 3-4 high priority, 32 entries each) holds any
/// of the entries PortInfo `pi` advertises (VLArbLowCap, VLArbHighCap). IBA 14.2.5.9.
bool vlarb_block_has_entries(const mad::PortInfo& pi, unsigned block);

SaAnswer answer_pkey_table_records(const SaSnapshot& snap, const SaQuery& q, const TableCache& cache,
                                   std::vector<TableKey>& missing);
SaAnswer answer_sl2vl_table_records(const SaSnapshot& snap, const SaQuery& q, const TableCache& cache,
                                    std::vector<TableKey>& missing);
SaAnswer answer_vlarb_table_records(const SaSnapshot& snap, const SaQuery& q, const TableCache& cache,
                                    std::vector<TableKey>& missing);

}  // namespace smd::sa
