#include "smd/program/switch_programmer.h"

#include "smd/program/lft_plan.h"
#include "smd/program/switch_table_send.h"

namespace smd {

ProgramCounts program_switches(SmpBatch& batch, SweepFabric& fabric, const RoutingTables& want, AppliedTables& applied,
                               std::vector<SweepProblem>& problems, std::optional<std::uint8_t> life_time_value) {
  LftPlan plan = plan_lft(fabric, want, applied, life_time_value);
  AppliedRecorder recorder(fabric, AppliedStores{.lft = &applied});
  return send_switch_table_plan(batch, plan, EchoRule::kLinearFdbTop, mad::attr::kLinearForwardingTable, recorder,
                                problems);
}

}  // namespace smd
