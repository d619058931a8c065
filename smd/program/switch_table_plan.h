// The shape shared by the switch-wide forwarding tables, LFT (lft_plan.h) and MFT (mft_plan.h): blocks
// written only where they differ from what the switch acknowledged, a SwitchInfo top (LinearFDBTop,
// MulticastFDBTop, IBA 14.2.5.4) that says how far the table reaches, and the rule that a switch
// reporting another top than it acknowledged was reset and gets its whole table again. A table kind
// supplies its pure plan (which blocks, which top); sending, recording and the reset bookkeeping are
// done once for both (switch_table_send.h).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/table_write.h"

namespace smd {

/// The writes of one switch table over the fabric, and what the plan found on the way.
struct SwitchTablePlan {
  /// Per switch, in topology order: its top Set (SwitchInfo read-modify-write of what the switch holds,
  /// EchoRule::kLinearFdbTop / kMulticastFdbTop) and its blocks (EchoRule::kPayload); the order of the
  /// two within a switch is the table kind's (its plan header says which).
  std::vector<TableWrite> writes;
  /// Switches whose top as discovery read it is already the wanted one, and that the SM had no
  /// acknowledged top for: what they hold is believed without a write.
  std::vector<std::pair<Guid, Lid>> tops_confirmed;
  /// Switches that report a top other than the one they acknowledged: the table was reset behind the
  /// SM's back (a reboot, another SM), so nothing they were believed to hold is believed any more; the
  /// plan writes their whole table, and the sender forgets what they held.
  std::vector<Guid> stale;
  unsigned switches = 0;        ///< switches whose table was compared
  unsigned blocks_skipped = 0;  ///< blocks known to hold their wanted content already
  unsigned top_updates = 0;     ///< SwitchInfo top Sets in `writes`
  /// Tables (or entries) beyond the switch's capacity, or a switch with no SwitchInfo: not written
  /// (code kCapacity).
  std::vector<SweepProblem> problems;
};

}  // namespace smd
