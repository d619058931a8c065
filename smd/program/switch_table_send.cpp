#include "smd/program/switch_table_send.h"

#include <spdlog/spdlog.h>

namespace smd {

ProgramCounts send_switch_table_plan(SmpBatch& batch, SwitchTablePlan& plan, EchoRule top_rule,
                                     std::uint16_t block_attr, AppliedRecorder& recorder,
                                     std::vector<SweepProblem>& problems) {
  ProgramCounts counts;
  counts.switches = plan.switches;
  counts.blocks_skipped = plan.blocks_skipped;
  counts.top_updates = plan.top_updates;
  counts.blocks_written = static_cast<unsigned>(plan.writes.size()) - plan.top_updates;
  for (SweepProblem& p : plan.problems) problems.push_back(std::move(p));
  const bool lft = top_rule == EchoRule::kLinearFdbTop;
  for (Guid guid : plan.stale) {
    spdlog::warn("switch {} reports a {} other than the one it acknowledged: its {} was reset; writing all of it again",
                 format_guid(guid), lft ? "LinearFDBTop" : "MulticastFDBTop", lft ? "LFT" : "MFT");
    recorder.forget_table(top_rule, guid);
  }
  for (const auto& [guid, top] : plan.tops_confirmed) recorder.confirm_top(top_rule, guid, top);
  const unsigned failed_before = recorder.failed(block_attr);
  write_plan(batch, plan.writes, recorder, problems);
  counts.blocks_failed = recorder.failed(block_attr) - failed_before;
  return counts;
}

}  // namespace smd
