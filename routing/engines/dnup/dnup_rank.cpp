#include "routing/engines/dnup/dnup_rank.h"

#include <algorithm>
#include <numeric>

namespace smd {

std::vector<std::uint32_t> dnup_ranks(const SwitchGraph& graph, const std::vector<std::uint32_t>& sources) {
  std::vector<SwitchIndex> leaves;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    if (sources[s] > 0) leaves.push_back(s);
  }
  std::vector<std::uint32_t> rank = switch_distances(graph, leaves);
  for (auto& r : rank) {
    if (r == kNoDistance) r = 0;  // a component without CAs: one plateau
  }
  return rank;
}

std::vector<std::uint32_t> dnup_lift(const Topology& topo, const SwitchGraph& graph,
                                     const std::vector<std::uint32_t>& rank) {
  const std::size_t n = graph.num_switches();
  std::vector<std::uint32_t> lift(n, kNoDistance);
  std::vector<SwitchIndex> queue;
  // BFS over cables between equal ranks, from `queue`, values starting at `base`.
  const auto spread = [&](std::size_t head) {
    for (; head < queue.size(); ++head) {
      const SwitchIndex u = queue[head];
      for (const auto& link : graph.links(u)) {
        const SwitchIndex v = link.peer;
        if (rank[v] != rank[u] || lift[v] != kNoDistance) continue;
        lift[v] = lift[u] + 1;
        queue.push_back(v);
      }
    }
  };
  for (SwitchIndex s = 0; s < n; ++s) {
    const auto links = graph.links(s);
    if (std::any_of(links.begin(), links.end(), [&](const auto& l) { return rank[l.peer] > rank[s]; })) {
      lift[s] = 0;
      queue.push_back(s);
    }
  }
  spread(0);
  // Plateaus: each from its lowest-GUID switch.
  std::vector<SwitchIndex> by_guid(n);
  std::iota(by_guid.begin(), by_guid.end(), SwitchIndex{0});
  std::sort(by_guid.begin(), by_guid.end(), [&](SwitchIndex a, SwitchIndex b) {
    return topo.node(graph.node(a)).guid < topo.node(graph.node(b)).guid;
  });
  for (const SwitchIndex s : by_guid) {
    if (lift[s] != kNoDistance) continue;
    const std::size_t head = queue.size();
    lift[s] = static_cast<std::uint32_t>(n);
    queue.push_back(s);
    spread(head);
  }
  return lift;
}

UpDownOrder dnup_order(const Topology& topo, const SwitchGraph& graph, const std::vector<std::uint32_t>& sources) {
  const std::vector<std::uint32_t> rank = dnup_ranks(graph, sources);
  const std::uint32_t top = rank.empty() ? 0 : *std::max_element(rank.begin(), rank.end());
  // make_updown_order puts the lowest key first (highest): the farthest from the CAs.
  std::vector<std::uint32_t> key(rank.size());
  for (std::size_t s = 0; s < rank.size(); ++s) key[s] = top - rank[s];
  const std::vector<std::uint32_t> lift = dnup_lift(topo, graph, rank);
  const std::vector<std::uint64_t> ids(lift.begin(), lift.end());
  return make_updown_order(topo, graph, key, ids);
}

}  // namespace smd
