// The LFT plan (OpenSM's set_lft_block idea, as a pure function): which SMP Sets make every switch hold
// the LFT routing wants (IBA 14.2.5.10) with the right LinearFDBTop (14.2.5.4), given what each switch
// acknowledged before (smd/fabric/applied_tables.h). Only blocks not known to hold their wanted content
// are written (all of them the first time a switch is seen); LinearFDBTop only when it differs from what
// the switch holds (acknowledged, else as discovery read it). A switch whose reported LinearFDBTop is not
// the one it acknowledged has lost its table and gets all of it again. No SMP is sent here;
// table_writer.h sends.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "routing/model/forwarding.h"
#include "smd/fabric/applied_tables.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/program/switch_table_plan.h"

namespace smd {

/// Per switch, in topology order: the SwitchInfo Set of LinearFDBTop first (EchoRule::kLinearFdbTop,
/// read-modify-write of the SwitchInfo the switch holds; top_updates counts them), then its LFT blocks
/// (EchoRule::kPayload). Problems: switches whose table would reach above LinearFDBCap (or that report no
/// LinearFDBCap): nothing is written to them.
using LftPlan = SwitchTablePlan;

/// Plan the LFT writes for `want` (RoutingTables::lft indexed by the fabric's NodeIndex). The same SwitchInfo
/// Set carries LifeTimeValue (IBA 14.2.5.4) `life_time_value`, and a switch that holds its top but another
/// LifeTimeValue gets that Set too; nullopt leaves LifeTimeValue as the switch holds it. Cost: one pass
/// over every wanted block; no allocation beyond the plan itself.
LftPlan plan_lft(const SweepFabric& fabric, const RoutingTables& want, const AppliedTables& applied,
                 std::optional<std::uint8_t> life_time_value = std::nullopt);

}  // namespace smd
