#include "smd/program/port_plan.h"

#include <algorithm>

#include "mad/codec/port_info.h"
#include "routing/qos/sl2vl_plan.h"
#include "smd/program/port_m_key.h"
#include "smd/program/port_fields_plan.h"

namespace smd {

mad::PortInfo nop_base(const mad::PortInfo& held) {
  mad::PortInfo pi = held;
  pi.port_state = 0;               // NoChange: ibsim answers 0x1C to a Set of the current state
  pi.port_physical_state = 0;      // NoChange
  pi.link_down_default_state = 0;  // NoChange
  pi.client_reregister = false;    // write-only: set by the endport plan when it is wanted
  return pi;
}

TableWrite port_info_set(const SweepFabric& fabric, NodeIndex n, PortNum p, const mad::PortInfo& pi, EchoRule echo) {
  // Modifier bit 31: LinkSpeedExtEnabled is taken, not ignored.
  TableWrite w = make_set(n, p, fabric.topo().node(n).guid, fabric.port_path(n, p), mad::attr::kPortInfo,
                          fabric.port_info_mod(n, p), echo);
  pi.encode(w.request.data);
  return w;
}

namespace {

/// What arming a port agrees with its peer: NeighborMTU and OperationalVLs the smaller of both ends'
/// MTUCap and VLCap (IBA 7.6, 14.2.5.6), OperationalVLs capped by QoS max_vls of the port's type.
void agree_with_peer(const Node& node, PortNum p, const mad::PortInfo& now, const mad::PortInfo& peer,
                     const QosSpec* qos, mad::PortInfo& pi) {
  if (now.mtu_cap && peer.mtu_cap) pi.neighbor_mtu = std::min(now.mtu_cap, peer.mtu_cap);
  if (now.vl_cap && peer.vl_cap) pi.operational_vls = std::min(now.vl_cap, peer.vl_cap);
  if (qos != nullptr && qos->enabled && pi.operational_vls != 0) {
    const std::uint8_t max_vls = qos_port_spec(*qos, qos_port_type(node, p)).max_vls;
    pi.operational_vls = std::min(pi.operational_vls, op_vls_code_for(max_vls));
  }
}

/// The peer's PortInfo when port p of `node` can be armed by a Set now: p is in Init and cabled to a
/// port the SM read in Init, Armed or Active (an SMA refuses Armed otherwise; ibsim answers 0x1C).
const mad::PortInfo* armable_peer(const SweepFabric& fabric, const Node& node, PortNum p, const mad::PortInfo& now) {
  if (now.port_state != static_cast<std::uint8_t>(PortState::kInit) || !node.ports[p].connected()) return nullptr;
  const mad::PortInfo* peer = fabric.port_info(node.ports[p].peer, node.ports[p].peer_port);
  if (peer == nullptr || peer->port_state < static_cast<std::uint8_t>(PortState::kInit) ||
      peer->port_state > static_cast<std::uint8_t>(PortState::kActive)) {
    return nullptr;
  }
  return peer;
}

}  // namespace

PortPlan plan_endports(const SweepFabric& fabric, const LidMap& lids, const EndportSettings& want,
                       const ArmCaPorts* arm, const AppliedPortFields* acks) {
  PortPlan plan;
  for (const LidMap::Entry& e : lids.entries()) {
    const NodeIndex n = e.owner.node;
    const PortNum p = e.owner.port;
    const mad::PortInfo* now = fabric.port_info(n, p);
    if (now == nullptr) continue;  // unread port: discovery already reported it
    const Guid port_guid = fabric.topo().node(n).ports[p].guid;
    const bool rereg = want.client_reregister.contains(port_guid) &&
                       (now->capability_mask & mad::capmask::kIsClientReregistrationSupported) != 0;
    const std::uint64_t m_key = wanted_m_key(want, port_guid);
    const bool m_key_right =
        m_key == 0 || (now->m_key == m_key && now->m_key_protect_bits == want.m_key_protect &&
                            now->m_key_lease_period == want.m_key_lease_period_s);
    const PortFieldWants fields = wanted_port_fields(fabric, n, p, *now, want.fields);
    const bool fields_held =
        holds_port_fields(*now, fields, acks != nullptr ? acks->port(fabric.topo().node(n).guid, p) : nullptr);
    if (now->lid == e.base && now->lmc == e.lmc && now->master_sm_lid == want.sm_lid &&
        now->gid_prefix == want.subnet_prefix && m_key_right && !rereg && fields_held) {
      ++plan.skipped;
      continue;
    }
    mad::PortInfo pi = nop_base(*now);
    pi.lid = e.base;
    pi.lmc = e.lmc;
    pi.master_sm_lid = want.sm_lid;
    pi.gid_prefix = want.subnet_prefix;
    pi.client_reregister = rereg;
    put_port_fields(pi, fields);
    if (m_key != 0) {
      pi.m_key = m_key;
      pi.m_key_protect_bits = want.m_key_protect;
      pi.m_key_lease_period = want.m_key_lease_period_s;
    }
    const Node& node = fabric.topo().node(n);
    EchoRule echo = EchoRule::kPortLidLmc;
    if (arm != nullptr && !node.is_switch()) {
      if (const mad::PortInfo* peer = armable_peer(fabric, node, p, *now)) {
        pi.port_state = static_cast<std::uint8_t>(PortState::kArmed);
        agree_with_peer(node, p, *now, *peer, arm->qos, pi);
        echo = EchoRule::kPortLidLmcArmed;
        ++plan.armed;
      }
    }
    plan.writes.push_back(port_info_set(fabric, n, p, pi, echo));
  }
  return plan;
}

PortPlan plan_link_transitions(const SweepFabric& fabric, PortState from, PortState to, const QosSpec* qos) {
  PortPlan plan;
  const Topology& topo = fabric.topo();
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      const mad::PortInfo* now = port.connected() ? fabric.port_info(n, p) : nullptr;
      if (now == nullptr) continue;
      if (now->port_state != static_cast<std::uint8_t>(from)) {
        ++plan.skipped;
        continue;
      }
      mad::PortInfo pi = nop_base(*now);
      pi.port_state = static_cast<std::uint8_t>(to);
      const mad::PortInfo* peer = fabric.port_info(port.peer, port.peer_port);
      // Both ends must agree on MTU and data VLs before the link carries traffic (IBA 7.6, 14.2.5.6).
      if (to == PortState::kArmed && peer != nullptr) agree_with_peer(node, p, *now, *peer, qos, pi);
      plan.writes.push_back(port_info_set(fabric, n, p, pi, EchoRule::kPortState));
    }
  }
  return plan;
}

}  // namespace smd
