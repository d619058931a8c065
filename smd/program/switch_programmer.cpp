#include "smd/program/switch_programmer.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "smd/program/lft_plan.h"
#include "smd/program/table_writer.h"

namespace smd {

namespace {

// LFT blocks and LinearFDBTop into AppliedTables; the SwitchInfo answered to a top Set into the sweep.
class SwitchRecorder final : public WriteRecorder {
 public:
  SwitchRecorder(SweepFabric& fabric, AppliedTables& applied, ProgramCounts& counts)
      : fabric_(fabric), applied_(applied), counts_(counts) {}

  void answered(const TableWrite& w, const mad::SmpData& reply, bool believed) override {
    if (w.request.attr_id == mad::attr::kLinearForwardingTable) {
      if (believed) {
        AppliedLft::Block block;
        std::copy_n(w.request.data.begin(), block.size(), block.begin());
        applied_.record_lft_block(w.guid, w.request.attr_mod, block);
      } else {
        unanswered(w);
      }
      return;
    }
    if (believed) {
      const auto si = mad::SwitchInfo::decode(reply);
      applied_.record_lft_top(w.guid, si.linear_fdb_top);
      fabric_.acknowledge_switch(w.node, si);
    }
  }

  void unanswered(const TableWrite& w) override {
    if (w.request.attr_id != mad::attr::kLinearForwardingTable) return;
    applied_.forget_lft_block(w.guid, w.request.attr_mod);
    ++counts_.blocks_failed;
  }

 private:
  SweepFabric& fabric_;
  AppliedTables& applied_;
  ProgramCounts& counts_;
};

}  // namespace

ProgramCounts program_switches(SmpBatch& batch, SweepFabric& fabric, const RoutingTables& want, AppliedTables& applied,
                               std::vector<SweepProblem>& problems, std::optional<std::uint8_t> life_time_value) {
  LftPlan plan = plan_lft(fabric, want, applied, life_time_value);
  ProgramCounts counts;
  counts.switches = plan.switches;
  counts.blocks_skipped = plan.blocks_skipped;
  counts.top_updates = plan.top_updates;
  counts.blocks_written = static_cast<unsigned>(plan.writes.size()) - plan.top_updates;
  for (SweepProblem& p : plan.problems) problems.push_back(std::move(p));
  for (Guid guid : plan.stale) {
    spdlog::warn(
        "switch {} reports a LinearFDBTop other than the one it acknowledged: its LFT was reset; "
        "writing all of it again",
        format_guid(guid));
    applied.forget(guid);
  }
  for (const auto& [guid, top] : plan.tops_confirmed) applied.record_lft_top(guid, top);
  SwitchRecorder recorder(fabric, applied, counts);
  write_plan(batch, plan.writes, recorder, problems);
  return counts;
}

}  // namespace smd
