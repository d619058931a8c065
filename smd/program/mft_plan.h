// The MFT plan: which SMP Sets make every switch hold the multicast port masks routing wants (IBA
// 14.2.5.11, MulticastForwardingTable (block, position)) and the right MulticastFDBTop (14.2.5.4), given
// what each switch acknowledged before (smd/fabric/applied_mft.h). OpenSM resends every block up to the
// highest in use on every sweep; here only the (block, position) pairs not known to hold their wanted
// content are written: on a switch seen for the first time, every block up to the highest one any switch
// uses (clearing what another SM may have left there), afterwards only what changed, and blocks a
// switch acknowledged with entries that are no longer wanted are cleared. No SMP is sent here;
// table_writer.h sends.
#pragma once

#include <utility>
#include <vector>

#include "routing/mcast/mcast_tables.h"
#include "smd/fabric/applied_mft.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/program/switch_table_plan.h"

namespace smd {

/// Per switch, in topology order: its MFT blocks by block then position (EchoRule::kPayload), then the
/// SwitchInfo Set of MulticastFDBTop (EchoRule::kMulticastFdbTop, read-modify-write of the SwitchInfo the
/// switch holds, PortStateChange written as 0 so it is left alone). Only switches that honour
/// MulticastFDBTop can be stale. Problems: entries at or above a switch's MulticastFDBCap (or a switch
/// with no SwitchInfo) are not written, one problem per switch naming the highest MLID refused.
using MftPlan = SwitchTablePlan;

/// The MulticastFDBTop for a switch whose highest block in use is `max_block` (-1: none): the last MLID
/// of that block, 0xBFFF when the table is empty (as OpenSM).
Lid mft_top_for(int max_block);

/// Plan the MFT writes for `want` on every switch of the fabric. Cost: one pass over every (block,
/// position) up to the highest block in use, per switch.
MftPlan plan_mft(const SweepFabric& fabric, const McastTables& want, const AppliedMft& applied);

}  // namespace smd
