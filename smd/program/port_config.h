// Port configuration phases of a sweep (IBA 14.4; OpenSM's "LIDs assigned", "links armed", "links
// active"): the port plans of port_plan.h sent through the one writer (table_writer.h), every answer
// recorded in the sweep's view of the fabric (sweep_fabric.h), never in what discovery observed.
#pragma once

#include <cstdint>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/model/lid_map.h"
#include "routing/qos/qos_spec.h"
#include "smd/fabric/applied_port_fields.h"
#include "smd/fabric/desired.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/port_plan.h"

namespace smd {

/// Counts of one phase, for the sweep summary.
struct PhaseCounts {
  unsigned sets = 0;       ///< PortInfo Sets sent
  unsigned ok = 0;         ///< Sets whose response (or read-back) showed the wanted value
  unsigned skipped = 0;    ///< ports already right (no SMP)
  unsigned read_back = 0;  ///< PortInfo Gets after a Set that failed, to learn whether it was done
};

/// Set LID/LMC/MasterSMLID/GID prefix (and M_Key, and ClientReregister where `want` asks) on every
/// endport whose PortInfo differs. Acknowledged PortInfos go into `fabric`; failures become `problems`.
/// The port GUIDs whose believed Set carried ClientReregister are appended to `reregistered` (when given).
/// With `arm`, CA ports in Init are armed by the same Set (plan_endports). The SM-owned fields of
/// `want.fields` ride on the same Sets; what each believed Set carried and got back goes into `fields`.
PhaseCounts configure_endports(SmpBatch& batch, SweepFabric& fabric, const LidMap& lids, const EndportSettings& want,
                               AppliedPortFields& fields, std::vector<SweepProblem>& problems,
                               std::vector<Guid>* reregistered = nullptr, const ArmCaPorts* arm = nullptr);

/// HOQLife, VLStallCount, the error thresholds and the link enables on every cabled switch port 1..N that
/// does not hold them (port_fields_plan.h): one Set per such port, PortState NoChange, believed when it
/// echoes HOQLife; what each believed Set carried and got back goes into `fields`.
PhaseCounts configure_switch_port_fields(SmpBatch& batch, SweepFabric& fabric, const PortFieldSettings& settings,
                                         AppliedPortFields& fields, std::vector<SweepProblem>& problems);

/// Move every cabled port whose state is `from` to `to` (Init->Armed or Armed->Active), both ends of
/// each link, NeighborMTU and OperationalVLs agreed with the peer when arming (OperationalVLs capped by
/// the QoS policy's max_vls when `qos` is enabled).
/// A PortState Set is not idempotent: when its GetResp is lost the port has moved, and the retry is
/// refused (status 0x1C: the port is already in `to`). So every Set that does not end kOk is followed by
/// a PortInfo Get, and only a port that is not in `to` after it is a problem; a port whose read-back
/// fails too is forgotten (its state is unknown; a re-sweep reads it again).
PhaseCounts transition_links(SmpBatch& batch, SweepFabric& fabric, PortState from, PortState to,
                             std::vector<SweepProblem>& problems, const QosSpec* qos = nullptr);

/// Cabled ports (switch external ports and CA ports) that are not Active or whose state is unknown, each
/// named by node GUID, the directed path to its SMA and "PortState <port>" (code kNotActive).
std::vector<SweepProblem> ports_not_active(const SweepFabric& fabric);

}  // namespace smd
