// Clearing SwitchInfo:PortStateChange (IBA 14.2.5.4: a switch sets it when any port changes state; the
// SM writes 1 to clear it), so the next light sweep (smd/sweep/light_sweep.h) sees only new changes.
#pragma once

#include <vector>

#include "mad/transport/smp_batch.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/table_write.h"

namespace smd {

/// The SwitchInfo Sets (read-modify-write, PortStateChange = 1) for every switch whose SwitchInfo, as
/// the sweep knows it, has the bit set (EchoRule::kAnswered: the bit may read back set again at once).
std::vector<TableWrite> plan_port_state_change_clear(const SweepFabric& fabric);

/// Send that plan; the SwitchInfo each switch answers goes into `fabric`. Returns the Sets sent.
unsigned clear_port_state_change(SmpBatch& batch, SweepFabric& fabric, std::vector<SweepProblem>& problems);

}  // namespace smd
