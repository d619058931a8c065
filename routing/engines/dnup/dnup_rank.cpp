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

std::vector<SwitchIndex> dnup_unshared_tops(const SwitchGraph& graph, const UpDownOrder& order,
                                            const std::vector<std::uint32_t>& sources) {
  const std::size_t n = graph.num_switches();
  const std::vector<std::uint32_t> component = switch_components(graph);
  std::vector<SwitchIndex> with_ca;
  for (SwitchIndex s = 0; s < n; ++s) {
    if (sources[s] > 0) with_ca.push_back(s);
  }
  std::vector<std::uint8_t> failed(n, 0);
  std::vector<std::uint32_t> stamp(n, 0);
  std::vector<SwitchIndex> queue;
  std::uint32_t round = 0;
  for (SwitchIndex top = 0; top < n; ++top) {
    if (!order.ups(top).empty()) continue;
    // The switches that climb to `top`: down from it, each down-going cable taken backwards is a climb.
    ++round;
    queue.assign(1, top);
    stamp[top] = round;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      for (const auto& link : order.downs(queue[head])) {
        if (stamp[link.peer] == round) continue;
        stamp[link.peer] = round;
        queue.push_back(link.peer);
      }
    }
    for (const SwitchIndex s : with_ca) {
      if (component[s] == component[top] && stamp[s] != round) failed[s] = 1;
    }
  }
  std::vector<SwitchIndex> out;
  for (const SwitchIndex s : with_ca) {
    if (failed[s] != 0) out.push_back(s);
  }
  return out;
}

UpDownOrder dnup_single_top_order(const Topology& topo, const SwitchGraph& graph, const UpDownOrder& dnup) {
  const std::vector<std::uint32_t> component = switch_components(graph);
  // by_pos runs from the highest switch down: the first switch met of each component is its top.
  std::vector<SwitchIndex> tops;
  std::vector<std::uint8_t> seen;
  for (const SwitchIndex s : dnup.by_pos) {
    const std::uint32_t c = component[s];
    if (c >= seen.size()) seen.resize(c + 1, 0);
    if (seen[c] != 0) continue;
    seen[c] = 1;
    tops.push_back(s);
  }
  // Components are disjoint, so one BFS from all tops gives each switch its distance from its own top.
  const std::vector<std::uint32_t> key = switch_distances(graph, tops);
  const std::vector<std::uint64_t> ids(dnup.pos.begin(), dnup.pos.end());
  return make_updown_order(topo, graph, key, ids);
}

}  // namespace smd
