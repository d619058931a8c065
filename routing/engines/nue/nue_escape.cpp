#include "routing/engines/nue/nue_escape.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>

namespace smd {

std::vector<SwitchIndex> central_switches(const Topology& topo, const SwitchGraph& graph,
                                          const std::vector<std::uint32_t>& component,
                                          const std::vector<bool>& is_destination) {
  const std::size_t n = graph.num_switches();
  std::vector<double> centrality(n, 0.0);
  std::vector<double> sigma(n);
  std::vector<double> delta(n);
  std::vector<std::int64_t> dist(n);
  std::vector<SwitchIndex> order;
  order.reserve(n);
  for (SwitchIndex s = 0; s < n; ++s) {
    if (!is_destination[s]) continue;
    // Brandes: shortest-path counts from s breadth first, then dependencies accumulated in reverse order,
    // each shortest path counted only when it ends at a destination switch.
    std::fill(sigma.begin(), sigma.end(), 0.0);
    std::fill(delta.begin(), delta.end(), 0.0);
    std::fill(dist.begin(), dist.end(), -1);
    sigma[s] = 1.0;
    dist[s] = 0;
    order.assign(1, s);
    for (std::size_t head = 0; head < order.size(); ++head) {
      const SwitchIndex v = order[head];
      for (const SwitchGraph::Link& link : graph.links(v)) {
        const SwitchIndex w = link.peer;
        if (dist[w] < 0) {
          dist[w] = dist[v] + 1;
          order.push_back(w);
        }
        if (dist[w] == dist[v] + 1) sigma[w] += sigma[v];
      }
    }
    for (std::size_t i = order.size(); i-- > 1;) {
      const SwitchIndex w = order[i];
      const double carried = (is_destination[w] ? 1.0 : 0.0) + delta[w];
      for (const SwitchGraph::Link& link : graph.links(w)) {
        const SwitchIndex v = link.peer;
        if (dist[v] == dist[w] - 1) delta[v] += sigma[v] / sigma[w] * carried;
      }
      centrality[w] += delta[w];
    }
  }
  std::uint32_t components = 0;
  for (const std::uint32_t c : component) components = std::max(components, c + 1);
  std::vector<SwitchIndex> best(components, kNoSwitch);
  for (SwitchIndex v = 0; v < n; ++v) {
    SwitchIndex& b = best[component[v]];
    if (b == kNoSwitch || centrality[v] > centrality[b] ||
        (centrality[v] == centrality[b] && topo.node(graph.node(v)).guid < topo.node(graph.node(b)).guid)) {
      b = v;
    }
  }
  return best;
}

NueEscapeTree::NueEscapeTree(const SwitchGraph& graph, const ChannelIndex& channels,
                             const std::vector<SwitchIndex>& roots, const std::vector<std::uint64_t>& weight)
    : graph_(graph), channels_(channels), up_(graph.num_switches(), kNoChannel), down_(graph.num_switches()) {
  const std::size_t n = graph.num_switches();
  constexpr std::uint64_t kFar = ~std::uint64_t{0};
  std::vector<std::uint64_t> dist(n, kFar);
  std::vector<bool> done(n, false);
  // (distance, switch, channel switch -> parent): the lowest wins, so ties go to the lower index and port.
  using Entry = std::tuple<std::uint64_t, SwitchIndex, ChannelId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  for (const SwitchIndex r : roots) {
    if (r != kNoSwitch) queue.emplace(0, r, kNoChannel);
  }
  while (!queue.empty()) {
    const auto [d, v, c] = queue.top();
    queue.pop();
    if (done[v]) continue;
    done[v] = true;
    dist[v] = d;
    if (c != kNoChannel) {
      up_[v] = c;
      down_[channels.to(c)].push_back(channels.reverse(c));
    }
    for (ChannelId out = channels.first(v); out < channels.end(v); ++out) {
      const SwitchIndex w = channels.to(out);
      const ChannelId towards_v = channels.reverse(out);
      if (!done[w] && towards_v != kNoChannel) queue.emplace(d + weight[towards_v], w, towards_v);
    }
  }
}

void NueEscapeTree::paths_to(SwitchIndex d, std::vector<ChannelId>& next, std::vector<SwitchIndex>& order) const {
  next.assign(graph_.num_switches(), kNoChannel);
  order.assign(1, d);
  // Breadth first over tree edges from d: a switch reached from u sends to u.
  std::vector<bool> seen(graph_.num_switches(), false);
  seen[d] = true;
  for (std::size_t head = 0; head < order.size(); ++head) {
    const SwitchIndex u = order[head];
    const auto reach = [&](ChannelId towards_u) {
      const SwitchIndex w = channels_.from(towards_u);
      if (seen[w]) return;
      seen[w] = true;
      next[w] = towards_u;
      order.push_back(w);
    };
    // The parent reaches u down its tree edge; every child up its own.
    if (up_[u] != kNoChannel) reach(channels_.reverse(up_[u]));
    for (const ChannelId child : down_[u]) reach(channels_.reverse(child));
  }
}

}  // namespace smd
