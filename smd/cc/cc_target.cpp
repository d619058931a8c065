#include "smd/cc/cc_target.h"

namespace smd {

std::vector<CcTarget> cc_targets(const Topology& topo, const LidMap& lids, const NodeNames& names) {
  std::vector<CcTarget> out;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    if (node.is_switch()) {
      const Lid lid = lids.base_lid(n, 0);
      if (lid != 0) out.push_back({node.guid, 0, lid, true, names.of(node)});
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected()) continue;
      const Lid lid = lids.base_lid(n, p);
      if (lid != 0) out.push_back({node.guid, p, lid, false, names.of(node)});
    }
  }
  return out;
}

}  // namespace smd
