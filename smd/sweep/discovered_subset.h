// Cutting cables and nodes out of an observed fabric while keeping its per-node records aligned with
// the renumbered topology. Shared by the
// discovery vet (discovery_vet.h) and by the incremental sweep (incremental_discovery.h).
#pragma once

#include <deque>
#include <vector>

#include "smd/fabric/observed.h"

namespace smd {

/// Breadth-first from the SM's node over cables, lowest port first; only switches, and the SM's own node,
/// forward. `cross(n, port)` says whether the cable at `port` of node `n` may be taken; `reached(from, port,
/// to)` is called once for every node reached besides the SM's own, in BFS order. Returns which nodes were
/// reached (the SM's node included). The SM's node must be a node of `topo`.
template <typename Cross, typename Reached>
std::vector<bool> walk_from_sm(const Topology& topo, Cross cross, Reached reached) {
  std::vector<bool> seen(topo.size(), false);
  std::deque<NodeIndex> queue{topo.sm_node};
  seen[topo.sm_node] = true;
  while (!queue.empty()) {
    const NodeIndex n = queue.front();
    queue.pop_front();
    const Node& node = topo.node(n);
    if (n != topo.sm_node && !node.is_switch()) continue;
    for (const Port& p : node.ports) {
      if (!p.connected() || seen[p.peer] || !cross(n, p)) continue;
      seen[p.peer] = true;
      reached(n, p, p.peer);
      queue.push_back(p.peer);
    }
  }
  return seen;
}

/// Nodes reachable from the SM's node over the cables not `cut` ([node][port]) between nodes still
/// `keep` ([node]); only switches, and the SM's own node, forward. All false when the SM's node is
/// unknown or not kept.
std::vector<bool> reachable_from_sm(const Topology& topo, const std::vector<bool>& keep,
                                    const std::vector<std::vector<bool>>& cut);

/// Replace `d.topo` by the subset of nodes `keep` and cables not `cut`, renumbering the nodes in their
/// old order; the node records follow. `problems` and `smps` are left as they are.
void keep_subset(ObservedFabric& d, const std::vector<bool>& keep, const std::vector<std::vector<bool>>& cut);

}  // namespace smd
