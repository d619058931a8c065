#include "routing/engines/lash/lash_paths.h"

#include <algorithm>
#include <numeric>

namespace smd {

LashPaths::LashPaths(const Topology& topo, const SwitchGraph& graph)
    : n_(graph.num_switches()), next_(n_ * n_, kNoPort) {
  by_guid_.resize(n_);
  std::iota(by_guid_.begin(), by_guid_.end(), SwitchIndex{0});
  std::sort(by_guid_.begin(), by_guid_.end(), [&](SwitchIndex a, SwitchIndex b) {
    return topo.node(graph.node(a)).guid < topo.node(graph.node(b)).guid;
  });
  std::vector<SwitchIndex> parent(n_);
  std::vector<PortNum> via(n_);  // port of parent[v] that leads to v
  std::vector<SwitchIndex> queue;
  queue.reserve(n_);
  for (const SwitchIndex root : by_guid_) {
    std::fill(parent.begin(), parent.end(), kNoSwitch);
    parent[root] = root;
    queue.assign(1, root);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const SwitchIndex v = queue[head];
      for (const SwitchGraph::Link& link : graph.links(v)) {
        if (parent[link.peer] != kNoSwitch) continue;
        parent[link.peer] = v;
        via[link.peer] = link.port;
        queue.push_back(link.peer);
      }
    }
    // Every ancestor v of d routes to d through its child on the tree path; the first root to fix a pair wins.
    for (std::size_t i = 1; i < queue.size(); ++i) {
      const SwitchIndex d = queue[i];
      SwitchIndex child = d;
      for (SwitchIndex v = parent[d]; child != root; child = v, v = parent[v]) {
        PortNum& entry = next_[static_cast<std::size_t>(v) * n_ + d];
        if (entry == kNoPort) entry = via[child];
      }
    }
  }
}

}  // namespace smd
