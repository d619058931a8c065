// Port plans (IBA 14.2.5.6 PortInfo; OpenSM's "LIDs assigned", "links armed", "links active"): which
// PortInfo Sets make the endports carry their LIDs and settings, and move cabled ports one state up.
// Every Set is read-modify-write of the PortInfo the port holds as far as the SM knows (sweep_fabric.h),
// with PortState, PortPhysicalState and LinkDownDefaultState as NoChange unless that is the change:
// ibsim (and real SMAs) refuse a Set of the state a port already has (status 0x1C).
#pragma once

#include <vector>

#include "mad/codec/port_info.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/qos/qos_spec.h"
#include "smd/fabric/applied_port_fields.h"
#include "smd/fabric/desired.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/program/table_write.h"

namespace smd {

struct PortPlan {
  std::vector<TableWrite> writes;
  unsigned skipped = 0;  ///< ports that already hold what is wanted (or are not in the `from` state)
  unsigned armed = 0;    ///< plan_endports with ArmCaPorts: CA ports armed by their endport Set
};

/// plan_endports: arm the CA ports in the same Set that gives them their LID (`qos` as for
/// plan_link_transitions). One SMP per CA port fewer than a separate "links armed" Set: 1,728 of the
/// 65,665 SMPs of the 1728-host tree's bring-up.
struct ArmCaPorts {
  const QosSpec* qos = nullptr;
};

/// A PortInfo ready to be sent as a Set that changes nothing but what the caller then assigns: `held`
/// with PortState, PortPhysicalState and LinkDownDefaultState NoChange and ClientReregister clear.
mad::PortInfo nop_base(const mad::PortInfo& held);

/// The PortInfo Set of `pi` to port `p` of node `n` (attribute modifier `p`), believed by `echo`.
TableWrite port_info_set(const SweepFabric& fabric, NodeIndex n, PortNum p, const mad::PortInfo& pi, EchoRule echo);

/// LID, LMC, MasterSMLID, GID prefix (and M_Key when set) on every endport of `lids` whose PortInfo
/// differs (EchoRule::kPortLidLmc). Ports never read are left out: discovery already named them.
/// ClientReregister (IBA 14.2.5.6, 14.4.11; OpenSM osm_lid_mgr.c) is set on the endports whose port GUID
/// is in `want.client_reregister` and whose CapabilityMask has IsClientReregistrationSupported: such a
/// port gets a Set even when nothing else differs. The bit reads back 0, so the echo does not ask for it.
/// With `arm`, a CA port that gets a Set, is in Init and faces a port in Init or beyond is moved to
/// Armed by that same Set, with the NeighborMTU and OperationalVLs the arming below would give it.
/// Armed ports carry no data until Active, and "links active" follows the LFT blocks, so this does not
/// let data in early. Such a Set is EchoRule::kPortLidLmcArmed: believed by its LID like the others (the
/// answer tells the port's state, and a port still in Init is armed by plan_link_transitions as before),
/// but not idempotent, so a failed one is read back (configure_endports).
/// The SM-owned fields of `want.fields` that the endport does not hold (port_fields_plan.h, judged with
/// what it answered to this SM's earlier Sets, `acks`; null: none remembered) ride on the same Set, and a
/// port that needs only them gets one Set all the same; they are not part of the echo rule (table_write.h).
PortPlan plan_endports(const SweepFabric& fabric, const LidMap& lids, const EndportSettings& want,
                       const ArmCaPorts* arm = nullptr, const AppliedPortFields* acks = nullptr);

/// PortState `to` on every cabled port now in `from` (both ends of each link appear); when arming,
/// NeighborMTU and OperationalVLs become the smaller of the two ends' MTUCap and VLCap (IBA 7.6,
/// 14.2.5.6), so both ends agree before the link carries traffic (EchoRule::kPortState).
/// With `qos` enabled, OperationalVLs is also capped by the max_vls of the port's type (OpenSM's
/// qos_*_max_vls; routing/qos/sl2vl_plan.h op_vls_code_for).
PortPlan plan_link_transitions(const SweepFabric& fabric, PortState from, PortState to, const QosSpec* qos = nullptr);

}  // namespace smd
