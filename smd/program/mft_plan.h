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
#include "smd/program/table_write.h"

namespace smd {

struct MftPlan {
  /// Per switch, in topology order: its MFT blocks by block then position (EchoRule::kPayload), then the
  /// SwitchInfo Set of MulticastFDBTop (EchoRule::kMulticastFdbTop, read-modify-write of the SwitchInfo
  /// the switch holds, PortStateChange written as 0 so it is left alone).
  std::vector<TableWrite> writes;
  /// Switches whose MulticastFDBTop as discovery read it is already the wanted one, and that the SM had
  /// no acknowledged top for: believed without a write.
  std::vector<std::pair<Guid, Lid>> tops_confirmed;
  /// Switches that honour MulticastFDBTop and report another than they acknowledged: their MFT was reset
  /// behind the SM's back; the plan writes all of it, and the programmer forgets what they held.
  std::vector<Guid> stale;
  unsigned switches = 0;        ///< switches with a MulticastFDBCap whose MFT was compared
  unsigned blocks_skipped = 0;  ///< (block, position) pairs known to hold their wanted content already
  unsigned top_updates = 0;     ///< MulticastFDBTop Sets in `writes`
  /// Entries at or above a switch's MulticastFDBCap (or a switch with no SwitchInfo): those entries are
  /// not written (code kCapacity), one problem per switch naming the highest MLID refused.
  std::vector<SweepProblem> problems;
};

/// The MulticastFDBTop for a switch whose highest block in use is `max_block` (-1: none): the last MLID
/// of that block, 0xBFFF when the table is empty (as OpenSM).
Lid mft_top_for(int max_block);

/// Plan the MFT writes for `want` on every switch of the fabric. Cost: one pass over every (block,
/// position) up to the highest block in use, per switch.
MftPlan plan_mft(const SweepFabric& fabric, const McastTables& want, const AppliedMft& applied);

}  // namespace smd
