#include "smd/perfmgr/perf_target.h"

#include <algorithm>
#include <optional>

#include "routing/model/components.h"

namespace smd {

std::vector<PerfTarget> perf_targets(const Topology& topo, const LidMap& lids, const NodeNames& names,
                                     bool ignore_cas) {
  std::vector<PerfTarget> out;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (ignore_cas && node.type == NodeType::kCa) continue;
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (!port.connected()) continue;
      const Lid lid = lids.base_lid(n, node.is_switch() ? PortNum{0} : p);
      if (lid == 0) continue;
      PerfTarget t;
      t.key = {node.guid, p};
      t.port_guid = node.is_switch() ? node.ports[0].guid : port.guid;
      t.lid = lid;
      t.node_desc = names.of(node);
      t.peer = names.port(topo.node(port.peer), port.peer_port);
      out.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<PerfTarget> lid_reachable(std::vector<PerfTarget> targets, const Topology& routed, std::size_t& skipped) {
  skipped = 0;
  if (routed.sm_node == kNoNode || routed.sm_node >= routed.size()) return targets;
  // The nodes a LID-routed MAD from the SM's port can reach: those of the SM node's component over routed cables.
  std::vector<bool> reached(routed.size(), false);
  for (const std::vector<NodeIndex>& component : connected_components(routed)) {
    if (!std::binary_search(component.begin(), component.end(), routed.sm_node)) continue;
    for (const NodeIndex n : component) reached[n] = true;
  }
  const auto polled = [&](const PerfTarget& t) {
    const std::optional<NodeIndex> n = routed.find(t.key.node_guid);
    if (!n || !reached[*n]) return false;
    const Node& node = routed.node(*n);
    // A switch's PMA answers at its port-0 LID whatever the port; a CA port's at its own LID, over its cable.
    return node.is_switch() || (t.key.port < node.ports.size() && node.ports[t.key.port].connected());
  };
  std::vector<PerfTarget> out;
  out.reserve(targets.size());
  for (PerfTarget& t : targets) {
    if (polled(t)) {
      out.push_back(std::move(t));
    } else {
      ++skipped;
    }
  }
  return out;
}

}  // namespace smd
