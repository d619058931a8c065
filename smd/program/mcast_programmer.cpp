#include "smd/program/mcast_programmer.h"

#include "routing/mcast/mcast_verify.h"
#include "smd/program/mft_plan.h"
#include "smd/program/switch_table_send.h"

namespace smd {

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
  AppliedRecorder recorder(fabric, AppliedStores{.mft = &applied});
  static_cast<ProgramCounts&>(counts) = send_switch_table_plan(
      batch, plan, EchoRule::kMulticastFdbTop, mad::attr::kMulticastForwardingTable, recorder, problems);
  return counts;
}

}  // namespace smd
