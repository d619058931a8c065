// Which port gets which SM-owned PortInfo field (IBA 14.2.5.6; as OpenSM's LID and link managers give
// them out), and the PortInfo Sets that put them on the switch ports that do not hold them. The endports'
// fields ride on their endport Set (port_plan.h plan_endports), so a port that needs only these fields gets
// one Set, and a port that holds them gets none.
//
//   field                       ports                                          value
//   SubnetTimeOut, MasterSMSL   CA ports, switch port 0                        subnet_timeout, sm_sl
//   HOQLife, VLStallCount       cabled switch ports 1..N                       leaf_* when the peer is no switch
//   HOQLife                     cabled router ports                            leaf_head_of_queue_lifetime
//   LocalPhyErrors, Overrun     cabled ports 1..N (CA, switch, router)         the thresholds
//   LinkWidth/SpeedEnabled      cabled ports 1..N                              0: left as is
//   LinkSpeedExtEnabled         cabled ports whose both ends support extended speeds
//
// Switch port 0 has no link, so the link fields are not its (OpenSM writes them only to an enhanced one).
#pragma once

#include "smd/fabric/applied_port_fields.h"
#include "smd/fabric/desired.h"
#include "smd/fabric/port_fields.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/program/port_plan.h"

namespace smd {

/// The fields port `p` of node `n` should hold, read against its PortInfo as the sweep knows it (`now`:
/// LinkWidthSupported and the like for the "set to supported" codes) and its peer's CapabilityMask.
PortFieldWants wanted_port_fields(const SweepFabric& fabric, NodeIndex n, PortNum p, const mad::PortInfo& now,
                                  const PortFieldSettings& settings);

/// True when a port reading `now` holds every field of `want` (port_holds, with `acks` null when the SM
/// never had a Set of this port answered).
bool holds_port_fields(const mad::PortInfo& now, const PortFieldWants& want, const PortFieldAcks* acks);

/// Put every wanted code into `pi` (all of them, held or not: a Set never writes back what a port reports
/// for a field it does not report as written).
void put_port_fields(mad::PortInfo& pi, const PortFieldWants& want);

/// A PortInfo Set (PortState NoChange, EchoRule::kPortHoqLife) on every cabled switch port 1..N that does not
/// hold its fields. Ports never read are left out (discovery named them).
PortPlan plan_switch_port_fields(const SweepFabric& fabric, const PortFieldSettings& settings,
                                 const AppliedPortFields& acks);

}  // namespace smd
