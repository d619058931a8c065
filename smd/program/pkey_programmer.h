// The "partitions configured (P_Key tables)" phase: plan the P_Key block writes and the partition
// enforcement Sets (pkey_plan.h), send them through the one writer (table_writer.h), and record what each
// port acknowledged (smd/fabric/applied_pkeys.h; the PortInfo an enforcement Set returned also goes into
// the sweep's view, so the link transitions after it carry the bits on).
#pragma once

#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/partitions/partition_plan.h"
#include "smd/fabric/applied_pkeys.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"

namespace smd {

struct PKeyCounts {
  unsigned ports = 0;             ///< ports whose tables were compared
  unsigned blocks_written = 0;    ///< P_KeyTable block Sets sent
  unsigned blocks_skipped = 0;    ///< blocks already known to hold their content
  unsigned blocks_failed = 0;     ///< block Sets not acknowledged with the same content
  unsigned enforcement_sets = 0;  ///< PortInfo Sets of the enforcement bits
};

/// Make every port hold `want`, writing only what differs from `applied`: the tables first, then the
/// enforcement bits (on only where the table is acknowledged). The planner's capacity problems and every
/// failed write become `problems`.
PKeyCounts program_pkeys(SmpBatch& batch, SweepFabric& fabric, const PartitionPlan& want, AppliedPKeys& applied,
                         std::vector<SweepProblem>& problems);

}  // namespace smd
