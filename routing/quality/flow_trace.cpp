#include "routing/quality/flow_trace.h"

namespace smd {

FlowTracer::FlowTracer(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                       std::span<const NodeIndex> ca_order)
    : graph_(SwitchGraph::build(topo)), lfts_(graph_, tables), max_lid_(lids.max_lid()) {
  slot_to_switch_.assign(graph_.num_slots(), 0);
  for (SwitchIndex s = 0; s < graph_.num_switches(); ++s) {
    for (const auto& link : graph_.links(s)) slot_to_switch_[graph_.slot(s, link.port)] = 1;
  }

  std::vector<std::uint8_t> listed(topo.size(), 0);
  auto add_ca = [&](NodeIndex n) {
    if (n >= topo.size() || listed[n] || topo.node(n).is_switch()) return;
    listed[n] = 1;
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports && p < node.ports.size(); ++p) {
      const Lid lid = lids.base_lid(n, p);
      const Port& port = node.ports[p];
      if (lid == 0 || !port.connected()) continue;
      const SwitchIndex sw = graph_.index_of(port.peer);
      if (sw == kNoSwitch) continue;
      endpoints_.push_back(Endpoint{n, p, lid, sw, port.peer_port});
    }
  };
  for (NodeIndex n : ca_order) add_ca(n);
  for (NodeIndex n : topo.cas()) add_ca(n);
}

bool FlowTracer::trace(std::uint32_t src, std::uint32_t dst, std::vector<std::uint32_t>& path,
                       unsigned lid_offset) const {
  const Endpoint& from = endpoints_[src];
  const Endpoint& to = endpoints_[dst];
  const unsigned lid_value = to.lid + lid_offset;
  if (lid_value > max_lid_) return false;
  const auto lid = static_cast<Lid>(lid_value);
  path.push_back(static_cast<std::uint32_t>(graph_.num_slots() + src));
  const LftWalkEnd end = walk_lft(
      graph_, from.sw, LidTarget{to.sw, to.sw_port}, [&](SwitchIndex s) { return lfts_.out_port(s, lid); },
      [&](SwitchIndex s, PortNum p) { path.push_back(graph_.slot(s, p)); });
  return end.delivered();
}

}  // namespace smd
