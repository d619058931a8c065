#include "routing/engines/dfsssp/sssp_paths.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace smd {
namespace {

/// Least weight of one hop on an unloaded channel, in units of "one source port routed over it". The
/// paper starts every weight at 1, which lets loads win over distance so paths grow long; measured on a
/// 12-ary 3-tree, a 64-unit hop still let them, and one worth every source port of the fabric keeps them
/// shortest while the loads still choose among equal-length paths.
constexpr std::uint64_t kMinHopWeight = 64;

constexpr std::uint64_t kInfinite = ~std::uint64_t{0};

}  // namespace

std::vector<std::uint32_t> source_ports(const SwitchGraph& graph) {
  std::vector<std::uint32_t> out(graph.num_switches(), 0);
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (PortNum p = 1; p <= graph.num_ports(s); ++p) {
      if (graph.peer_node(s, p) != kNoNode && graph.peer_switch(s, p) == kNoSwitch) ++out[s];
    }
  }
  return out;
}

SsspStats route_balanced_shortest_paths(const SwitchGraph& graph, const ChannelIndex& channels,
                                        const std::vector<LidTarget>& targets, Lid max_lid, std::vector<Lft>& lft,
                                        std::span<const Lid> order) {
  const std::size_t n = graph.num_switches();
  const std::vector<std::uint32_t> sources = source_ports(graph);
  std::vector<std::uint64_t> load(channels.size(), 0);
  std::uint64_t total_sources = 0;
  for (std::uint32_t x : sources) total_sources += x;
  // One destination adds at most total_sources to a channel; a hop worth at least that keeps paths shortest
  // on large fat trees too, where loads of many destinations would otherwise outweigh a 64-unit hop.
  const std::uint64_t hop_weight = std::max<std::uint64_t>(kMinHopWeight, total_sources);
  std::vector<std::uint64_t> dist(n);
  std::vector<ChannelId> next(n);
  std::vector<std::uint64_t> carried(n);
  std::vector<SwitchIndex> settled;
  settled.reserve(n);
  using Item = std::pair<std::uint64_t, SwitchIndex>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  for (SwitchIndex s = 0; s < n; ++s) lft[graph.node(s)] = Lft(max_lid);

  SsspStats stats;
  std::vector<Lid> ascending;
  if (order.empty()) {
    for (std::size_t lid = 1; lid <= max_lid && lid < targets.size(); ++lid) ascending.push_back(static_cast<Lid>(lid));
    order = ascending;
  }
  for (const Lid lid : order) {
    if (lid == 0 || lid > max_lid || lid >= targets.size()) continue;
    const LidTarget& t = targets[lid];
    if (t.sw == kNoSwitch) continue;
    ++stats.destinations;
    std::fill(dist.begin(), dist.end(), kInfinite);
    std::fill(next.begin(), next.end(), kNoChannel);
    settled.clear();
    dist[t.sw] = 0;
    heap.push({0, t.sw});
    while (!heap.empty()) {
      const auto [d, v] = heap.top();
      heap.pop();
      if (d != dist[v]) continue;  // a stale entry
      settled.push_back(v);
      // Incoming channels of v are the reverses of its outgoing ones: u -> v for every neighbour u.
      for (ChannelId out = channels.first(v); out < channels.end(v); ++out) {
        const ChannelId c = channels.reverse(out);
        if (c == kNoChannel) continue;
        const SwitchIndex u = channels.from(c);
        const std::uint64_t w = hop_weight + load[c];
        const std::uint64_t cand = d + w;
        if (cand < dist[u]) {
          dist[u] = cand;
          next[u] = c;
          heap.push({cand, u});
        } else if (cand == dist[u] && next[u] != kNoChannel) {
          const ChannelId old = next[u];
          if (load[c] < load[old] || (load[c] == load[old] && c < old)) next[u] = c;
        }
      }
    }
    const Lid dlid = static_cast<Lid>(lid);
    lft[graph.node(t.sw)].set(dlid, t.port);
    // Farthest first: a switch's carried sources are final before they are passed to its next hop.
    for (SwitchIndex u : settled) carried[u] = sources[u];
    for (auto it = settled.rbegin(); it != settled.rend(); ++it) {
      const SwitchIndex u = *it;
      const ChannelId c = next[u];
      if (c == kNoChannel) continue;  // the target itself
      lft[graph.node(u)].set(dlid, channels.port(c));
      load[c] += carried[u];
      carried[channels.to(c)] += carried[u];
    }
  }
  for (std::uint64_t l : load) stats.max_load = std::max(stats.max_load, l);
  return stats;
}

}  // namespace smd
