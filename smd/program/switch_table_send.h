// Sending a switch table plan (switch_table_plan.h) through the one writer (table_writer.h) with the one
// recorder (applied_recorder.h), and the reset bookkeeping that comes with it: what the LFT and MFT
// programmers share.
#pragma once

#include <cstdint>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/applied_recorder.h"
#include "smd/program/switch_table_plan.h"

namespace smd {

/// What sending one switch table plan did.
struct ProgramCounts {
  unsigned switches = 0;        ///< switches whose tables were compared
  unsigned blocks_written = 0;  ///< block Sets sent
  unsigned blocks_skipped = 0;  ///< blocks already known to hold their content
  unsigned blocks_failed = 0;   ///< block Sets not acknowledged with the same content
  unsigned top_updates = 0;     ///< SwitchInfo top Sets
};

/// Send `plan` of the table whose top Set is believed by `top_rule` (kLinearFdbTop: LFT, kMulticastFdbTop:
/// MFT) and whose blocks are attribute `block_attr`: stale switches are forgotten (logged as a reset),
/// confirmed tops recorded, the writes sent and every answer recorded by `recorder`. The plan's problems
/// move to `problems`, with the writer's.
ProgramCounts send_switch_table_plan(SmpBatch& batch, SwitchTablePlan& plan, EchoRule top_rule,
                                     std::uint16_t block_attr, AppliedRecorder& recorder,
                                     std::vector<SweepProblem>& problems);

}  // namespace smd
