// Disabling and enabling a link by PortInfo:PortPhysicalState (IBA 14.2.5.6, table 155; 5.3 physical
// layer states): what health.babbling_port does to a port that sends traps 129-131 too fast
// (smd/perfmgr/babbling_ports.h), and what smctl port clear or a policy reload undoes.
//
// Which end: of the babbling port and its peer, the one whose node is fewer hops from the SM, as OpenSM
// does: the SM still reaches that node after the link is down (the node's own path cannot run over the
// link, or its peer would be nearer), so it can enable the port again later. When both ends are as far the
// babbling port itself is taken. A port on the SM's own node that carries the SM's path is never disabled
// (kInvalidInput): the SM would cut itself off.
//
// What is written: the port's PortInfo as the sweep last read it (read-modify-write: a PortInfo Set writes
// every field), with PortState Down (1) and PortPhysicalState Disabled (3); to enable, PortState NOP (0)
// and PortPhysicalState Polling (2), the state a port trains from (ibportstate's "enable" writes the same).
// A write is believed when the port's answer shows PortPhysicalState Disabled (disable) or anything else
// (enable).
#pragma once

#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/table_write.h"

namespace smd {

/// PortInfo:PortPhysicalState values the SM writes (IBA table 155).
inline constexpr std::uint8_t kPhysStatePolling = 2;
inline constexpr std::uint8_t kPhysStateDisabled = 3;

/// The end of `babbling`'s link to disable (see the header comment). Errors: kInvalidInput when the node or
/// port is not in `topo`, or when the end would be the SM's own port.
Result<PortKey> disable_end(const Topology& topo, const PortKey& babbling);

/// One PortInfo Set per port of `ports` (each (node GUID, port) as found in `fabric`): disable (true) or
/// enable (false). A port whose node is not in the fabric, or whose PortInfo the sweep has not read, has no
/// write (nothing to base one on).
std::vector<TableWrite> plan_port_phys_state(const SweepFabric& fabric, const std::vector<PortKey>& ports, bool disable);

/// Send plan_port_phys_state(fabric, ports, disable); answers go into `fabric`. Returns the ports whose answer
/// showed the state asked for; a write without a status-0 answer is a problem.
std::vector<PortKey> set_port_phys_state(SmpBatch& batch, SweepFabric& fabric, const std::vector<PortKey>& ports,
                                         bool disable, std::vector<SweepProblem>& problems);

}  // namespace smd
