// A two-node observed fabric built by hand for the plan tests (no transport, no discovery): switch 0
// (4 ports, the SM's node) cabled at port 1 to CA 1 port 1. Every record is set explicitly, so each
// expected write in the tests follows from the numbers here and the IBA rules, not from the planner.
#pragma once

#include <memory>

#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "smd/fabric/sweep_fabric.h"

namespace smd::test {

inline constexpr Guid kPlanSwitchGuid = 0x200000;
inline constexpr Guid kPlanCaGuid = 0x100000;

/// PortInfo as an SMA would report it: `state` (1 Down .. 4 Active), MTUCap, VLCap, LID.
inline mad::PortInfo reported_port(std::uint8_t state, std::uint8_t mtu_cap, std::uint8_t vl_cap, Lid lid = 0) {
  mad::PortInfo pi;
  pi.port_state = state;
  pi.port_physical_state = state == 1 ? 3 : mad::kPhysStateLinkUp;
  pi.link_down_default_state = 2;
  pi.mtu_cap = mtu_cap;
  pi.vl_cap = vl_cap;
  pi.lid = lid;
  pi.gid_prefix = 0xfe80000000000000ULL;
  pi.encode(pi.raw);
  pi.raw[63] = 0x5a;  // reserved bits and LinkSpeedExtEnabled: read-modify-write must carry them through
  return mad::PortInfo::decode(pi.raw);
}

/// The switch (LinearFDBCap `cap`, LinearFDBTop `top` as found) and the CA, both ports Init.
inline ObservedFabric plan_fabric(std::uint16_t cap = 1024, Lid top = 0) {
  auto topo = std::make_shared<Topology>();
  Node sw;
  sw.guid = kPlanSwitchGuid;
  sw.type = NodeType::kSwitch;
  sw.num_ports = 4;
  sw.ports.resize(5);
  for (PortNum p = 0; p <= 4; ++p) sw.ports[p].num = p;
  sw.lft_cap = cap;
  sw.lft_top = top;
  Node ca;
  ca.guid = kPlanCaGuid;
  ca.type = NodeType::kCa;
  ca.num_ports = 1;
  ca.ports.resize(2);
  ca.ports[1].num = 1;
  ca.dr_path = {1};
  (void)topo->add_node(sw);
  (void)topo->add_node(ca);
  (void)topo->connect(0, 1, 1, 1);
  topo->sm_node = 0;
  topo->sm_port = 0;

  ObservedFabric f;
  f.topo = topo;
  f.nodes.resize(2);
  mad::SwitchInfo si;
  si.linear_fdb_cap = cap;
  si.linear_fdb_top = top;
  si.encode(si.raw);
  si.raw[40] = 0xa5;  // reserved: must survive the LinearFDBTop read-modify-write
  f.nodes[0].switch_info = mad::SwitchInfo::decode(si.raw);
  f.nodes[0].ports.resize(5);
  for (PortNum p = 0; p <= 4; ++p) f.nodes[0].ports[p].port_info = reported_port(p <= 1 ? (p == 0 ? 4 : 2) : 1, 5, 4);
  f.nodes[1].ports.resize(2);
  f.nodes[1].ports[0].path = mad::DrPath({1});
  f.nodes[1].ports[1].path = mad::DrPath({1});
  f.nodes[1].ports[1].port_info = reported_port(2, 4, 2);
  return f;
}

}  // namespace smd::test
