#include "smd/sweep/discovered_subset.h"

#include <deque>

namespace smd {

std::vector<bool> reachable_from_sm(const Topology& topo, const std::vector<bool>& keep,
                                    const std::vector<std::vector<bool>>& cut) {
  if (topo.sm_node == kNoNode || topo.sm_node >= topo.size() || !keep[topo.sm_node]) {
    return std::vector<bool>(topo.size(), false);
  }
  return walk_from_sm(
      topo, [&](NodeIndex n, const Port& p) { return !cut[n][p.num] && keep[p.peer]; },
      [](NodeIndex, const Port&, NodeIndex) {});
}

void keep_subset(ObservedFabric& d, const std::vector<bool>& keep, const std::vector<std::vector<bool>>& cut) {
  const Topology& in = *d.topo;
  auto out = std::make_shared<Topology>();
  std::vector<NodeRecord> kept;
  std::vector<NodeIndex> remap(in.size(), kNoNode);
  for (NodeIndex n = 0; n < in.size(); ++n) {
    if (!keep[n]) continue;
    Node copy = in.node(n);
    for (Port& p : copy.ports) p.peer = kNoNode, p.peer_port = 0;
    auto added = out->add_node(std::move(copy));
    if (!added.ok()) continue;  // cannot happen: GUIDs were unique in `in`
    remap[n] = added.value();
    kept.push_back(std::move(d.nodes[n]));
  }
  for (NodeIndex n = 0; n < in.size(); ++n) {
    if (remap[n] == kNoNode) continue;
    for (const Port& p : in.node(n).ports) {
      if (!p.connected() || cut[n][p.num] || remap[p.peer] == kNoNode || p.peer < n) continue;
      (void)out->connect(remap[n], p.num, remap[p.peer], p.peer_port);  // a subset of valid cables
    }
  }
  if (in.sm_node != kNoNode && remap[in.sm_node] != kNoNode) {
    out->sm_node = remap[in.sm_node];
    out->sm_port = in.sm_port;
  }
  d.topo = std::move(out);
  d.nodes = std::move(kept);
}

}  // namespace smd
