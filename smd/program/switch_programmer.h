// The "switches configured" phase: plan the LFT writes (lft_plan.h), send them through the one writer
// (table_writer.h), and record what each switch acknowledged (smd/fabric/applied_tables.h; the
// SwitchInfo a LinearFDBTop Set returned also goes into the sweep's view, for the PortStateChange clear
// that reads it next).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/model/forwarding.h"
#include "smd/fabric/applied_tables.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/switch_table_send.h"

namespace smd {


/// Make every switch hold `want`, writing only what differs from `applied`; never above a switch's
/// LinearFDBCap (such a table is a problem and nothing of it is written). Failures become `problems`.
/// `life_time_value` as plan_lft (SwitchInfo LifeTimeValue, nullopt: left as the switch holds it).
ProgramCounts program_switches(SmpBatch& batch, SweepFabric& fabric, const RoutingTables& want, AppliedTables& applied,
                               std::vector<SweepProblem>& problems,
                               std::optional<std::uint8_t> life_time_value = std::nullopt);

}  // namespace smd
