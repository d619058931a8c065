#include "smd/program/pkey_programmer.h"

#include <utility>

#include "smd/program/applied_recorder.h"
#include "smd/program/pkey_plan.h"

namespace smd {

PKeyCounts program_pkeys(SmpBatch& batch, SweepFabric& fabric, const PartitionPlan& want, AppliedPKeys& applied,
                         std::vector<SweepProblem>& problems) {
  PKeyCounts counts;
  for (SweepProblem& p : partition_problems(fabric, want)) problems.push_back(std::move(p));
  const PKeyPlan plan = plan_pkey_tables(fabric, want, applied);
  counts.ports = plan.ports;
  counts.blocks_skipped = plan.blocks_skipped;
  counts.blocks_written = static_cast<unsigned>(plan.writes.size());
  AppliedRecorder recorder(fabric, AppliedStores{.pkeys = &applied});
  write_plan(batch, plan.writes, recorder, problems);
  counts.blocks_failed = recorder.failed(mad::attr::kPKeyTable);
  unsigned right = 0;
  const std::vector<TableWrite> enforce = plan_pkey_enforcement(fabric, want, applied, right);
  counts.enforcement_sets = static_cast<unsigned>(enforce.size());
  write_plan(batch, enforce, recorder, problems);
  return counts;
}

}  // namespace smd
