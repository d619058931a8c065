#include "smd/program/port_fields_plan.h"

namespace smd {

namespace {

// The CapabilityMask that speaks for port p: a switch's external ports report theirs in port 0's
// PortInfo (IBA 14.2.5.6: CapabilityMask is valid only on port 0 of a switch).
std::uint32_t capability_of(const SweepFabric& fabric, NodeIndex n, PortNum p) {
  const Node& node = fabric.topo().node(n);
  const mad::PortInfo* pi = fabric.port_info(n, node.is_switch() ? PortNum{0} : p);
  return pi == nullptr ? 0 : pi->capability_mask;
}

// A link code: 0 leaves the field alone; `supported_code` asks the SMA for what the port supports, which
// is what a port holding it reads back. A mask is cut to what the port supports: a real SMA refuses a Set
// whose enable names an unsupported width or speed (status 0x1C), and with it every other field of the
// Set; where nothing of the mask is supported the field is left alone. (OpenSM sends the policy's mask.)
std::optional<FieldWant> link_want(std::uint8_t code, std::uint8_t supported_code, std::uint8_t supported) {
  if (code == 0) return std::nullopt;
  if (code == supported_code) return FieldWant{code, supported};
  if (supported == 0) return FieldWant{code, code};  // the port did not say: as the policy asks
  const auto usable = static_cast<std::uint8_t>(code & supported);
  if (usable == 0) return std::nullopt;
  return FieldWant{usable, usable};
}

void want(PortFieldWants& w, PortField f, std::uint8_t code) { w[static_cast<std::size_t>(f)] = FieldWant{code, code}; }

}  // namespace

PortFieldWants wanted_port_fields(const SweepFabric& fabric, NodeIndex n, PortNum p, const mad::PortInfo& now,
                                  const PortFieldSettings& s) {
  PortFieldWants w;
  const Node& node = fabric.topo().node(n);
  if (!node.is_switch() || p == 0) {
    want(w, PortField::kSubnetTimeOut, s.subnet_timeout);
    want(w, PortField::kMasterSmSl, s.master_sm_sl);
  }
  if (p == 0 || p >= node.ports.size() || !node.ports[p].connected()) return w;
  const Port& port = node.ports[p];
  const bool leaf = !fabric.topo().node(port.peer).is_switch();
  if (node.is_switch()) {
    want(w, PortField::kHoqLife, leaf ? s.leaf_hoq_life : s.hoq_life);
    want(w, PortField::kVlStallCount, leaf ? s.leaf_vl_stall_count : s.vl_stall_count);
  } else if (node.type == NodeType::kRouter) {
    want(w, PortField::kHoqLife, s.leaf_hoq_life);
  }
  want(w, PortField::kLocalPhyErrors, s.local_phy_errors);
  want(w, PortField::kOverrunErrors, s.overrun_errors);
  w[static_cast<std::size_t>(PortField::kLinkWidthEnabled)] =
      link_want(s.link_width_enabled, 255, now.link_width_supported);
  w[static_cast<std::size_t>(PortField::kLinkSpeedEnabled)] =
      link_want(s.link_speed_enabled, 15, now.link_speed_supported);
  // Extended speeds mean something only where both ends have them (an SMA without them ignores the field).
  const bool ext = (capability_of(fabric, n, p) & mad::capmask::kIsExtendedSpeedsSupported) != 0 &&
                   (capability_of(fabric, port.peer, port.peer_port) & mad::capmask::kIsExtendedSpeedsSupported) != 0;
  if (ext && s.link_speed_ext_enabled == 30) {
    w[static_cast<std::size_t>(PortField::kLinkSpeedExtEnabled)] = FieldWant{30, 0};  // 30: extended speeds off
  } else if (ext) {
    w[static_cast<std::size_t>(PortField::kLinkSpeedExtEnabled)] =
        link_want(s.link_speed_ext_enabled, 31, now.link_speed_ext_supported);
  }
  return w;
}

bool holds_port_fields(const mad::PortInfo& now, const PortFieldWants& want, const PortFieldAcks* acks) {
  for (std::size_t i = 0; i < kPortFieldCount; ++i) {
    if (!want[i]) continue;
    const std::optional<FieldAck> ack = acks != nullptr ? (*acks)[i] : std::nullopt;
    if (!port_holds(now, static_cast<PortField>(i), *want[i], ack)) return false;
  }
  return true;
}

void put_port_fields(mad::PortInfo& pi, const PortFieldWants& want) {
  for (std::size_t i = 0; i < kPortFieldCount; ++i) {
    if (want[i]) set_port_field(pi, static_cast<PortField>(i), want[i]->code);
  }
}

PortPlan plan_switch_port_fields(const SweepFabric& fabric, const PortFieldSettings& settings,
                                 const AppliedPortFields& acks) {
  PortPlan plan;
  const Topology& topo = fabric.topo();
  for (NodeIndex n : topo.switches()) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected()) continue;
      const mad::PortInfo* now = fabric.port_info(n, p);
      if (now == nullptr) continue;
      const PortFieldWants want = wanted_port_fields(fabric, n, p, *now, settings);
      if (holds_port_fields(*now, want, acks.port(node.guid, p))) {
        ++plan.skipped;
        continue;
      }
      mad::PortInfo pi = nop_base(*now);
      put_port_fields(pi, want);
      plan.writes.push_back(port_info_set(fabric, n, p, pi, EchoRule::kPortHoqLife));
    }
  }
  return plan;
}

}  // namespace smd
