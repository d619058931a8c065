#include "smd/program/mcast_programmer.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "mad/codec/mft_block.h"
#include "routing/mcast/mcast_verify.h"
#include "smd/program/mft_plan.h"
#include "smd/program/table_writer.h"

namespace smd {

namespace {

// MFT blocks and MulticastFDBTop into AppliedMft; the SwitchInfo answered to a top Set into the sweep.
class MftRecorder final : public WriteRecorder {
 public:
  MftRecorder(SweepFabric& fabric, AppliedMft& applied, McastProgramCounts& counts)
      : fabric_(fabric), applied_(applied), counts_(counts) {}

  void answered(const TableWrite& w, const mad::SmpData& reply, bool believed) override {
    if (w.request.attr_id == mad::attr::kMulticastForwardingTable) {
      if (believed) {
        applied_.record_block(w.guid, mad::MftBlock::block_of_mod(w.request.attr_mod),
                              mad::MftBlock::position_of_mod(w.request.attr_mod),
                              mad::MftBlock::decode(w.request.data));
      } else {
        unanswered(w);
      }
      return;
    }
    if (believed) {
      const auto si = mad::SwitchInfo::decode(reply);
      applied_.record_top(w.guid, si.multicast_fdb_top);
      fabric_.acknowledge_switch(w.node, si);
    }
  }

  void unanswered(const TableWrite& w) override {
    if (w.request.attr_id != mad::attr::kMulticastForwardingTable) return;
    applied_.forget_block(w.guid, mad::MftBlock::block_of_mod(w.request.attr_mod),
                          mad::MftBlock::position_of_mod(w.request.attr_mod));
    ++counts_.blocks_failed;
  }

 private:
  SweepFabric& fabric_;
  AppliedMft& applied_;
  McastProgramCounts& counts_;
};

}  // namespace

McastProgramCounts program_multicast(SmpBatch& batch, SweepFabric& fabric, const McastTables& want, AppliedMft& applied,
                                     std::vector<SweepProblem>& problems, const McastTables* verified) {
  McastProgramCounts counts;
  counts.groups = static_cast<unsigned>(want.trees.size());
  // Trees that passed the verifier on this fabric before and have not changed need no second look.
  McastTables to_check;
  const McastTables* check = &want;
  if (verified != nullptr) {
    for (const auto& [mlid, tree] : want.trees) {
      auto it = verified->trees.find(mlid);
      const bool same = it != verified->trees.end() && it->second.root == tree.root &&
                        it->second.members == tree.members && it->second.unreachable == tree.unreachable &&
                        it->second.switches == tree.switches;
      if (!same) to_check.trees.emplace(mlid, tree);
    }
    check = &to_check;
  }
  const auto verdict = verify_mcast(fabric.topo(), *check);
  if (!verdict.ok()) {
    problems.push_back({ProblemCode::kNoRoute, 0, "", "MulticastForwardingTable",
                        "multicast trees not verified, nothing written: " + verdict.error().message});
    return counts;
  }
  counts.verified = true;
  MftPlan plan = plan_mft(fabric, want, applied);
  counts.switches = plan.switches;
  counts.blocks_skipped = plan.blocks_skipped;
  counts.top_updates = plan.top_updates;
  counts.blocks_written = static_cast<unsigned>(plan.writes.size()) - plan.top_updates;
  for (SweepProblem& p : plan.problems) problems.push_back(std::move(p));
  for (Guid guid : plan.stale) {
    spdlog::warn(
        "switch {} reports a MulticastFDBTop other than the one it acknowledged: its MFT was reset; "
        "writing all of it again",
        format_guid(guid));
    applied.forget(guid);
  }
  for (const auto& [guid, top] : plan.tops_confirmed) applied.record_top(guid, top);
  MftRecorder recorder(fabric, applied, counts);
  write_plan(batch, plan.writes, recorder, problems);
  return counts;
}

}  // namespace smd
