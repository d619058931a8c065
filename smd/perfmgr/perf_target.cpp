#include "smd/perfmgr/perf_target.h"

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

}  // namespace smd
