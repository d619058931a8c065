#include "routing/model/hop_table.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <thread>

namespace smd {

SwitchGraph SwitchGraph::build(const Topology& topo) {
  SwitchGraph g;
  const auto& sw = topo.switches();
  g.nodes_ = sw;
  g.index_of_.assign(topo.size(), kNoSwitch);
  for (SwitchIndex s = 0; s < sw.size(); ++s) g.index_of_[sw[s]] = s;

  g.base_.resize(sw.size() + 1);
  std::uint32_t slots = 0;
  for (SwitchIndex s = 0; s < sw.size(); ++s) {
    g.base_[s] = slots;
    slots += static_cast<std::uint32_t>(topo.node(sw[s]).num_ports) + 1;
  }
  g.base_[sw.size()] = slots;
  g.peer_sw_.assign(slots, kNoSwitch);
  g.peer_node_.assign(slots, kNoNode);
  g.peer_port_.assign(slots, 0);

  g.link_base_.resize(sw.size() + 1);
  for (SwitchIndex s = 0; s < sw.size(); ++s) {
    g.link_base_[s] = static_cast<std::uint32_t>(g.links_.size());
    const Node& node = topo.node(sw[s]);
    for (PortNum p = 1; p <= node.num_ports && p < node.ports.size(); ++p) {
      const Port& port = node.ports[p];
      // A cable from a switch back to itself never lies on a shortest path and would confuse the
      // "next switch" logic of every walker: treat it as absent.
      if (!port.connected() || port.peer == sw[s]) continue;
      const std::uint32_t slot = g.base_[s] + p;
      g.peer_node_[slot] = port.peer;
      g.peer_port_[slot] = port.peer_port;
      const SwitchIndex peer = g.index_of_[port.peer];
      g.peer_sw_[slot] = peer;
      if (peer != kNoSwitch) g.links_.push_back(Link{p, peer});
    }
  }
  g.link_base_[sw.size()] = static_cast<std::uint32_t>(g.links_.size());
  return g;
}

LidTarget port_target(const Topology& topo, const SwitchGraph& graph, NodeIndex node, PortNum port) {
  if (node >= topo.size()) return {};
  const SwitchIndex own = graph.index_of(node);
  // Every LID of a switch addresses its management port 0 (IBA 14.2.5.10: port 0 = the switch).
  if (own != kNoSwitch) return LidTarget{own, 0};
  const Node& ca = topo.node(node);
  if (port >= ca.ports.size()) return {};
  const Port& cable = ca.ports[port];
  if (!cable.connected()) return {};
  const SwitchIndex attach = graph.index_of(cable.peer);
  if (attach == kNoSwitch) return {};
  return LidTarget{attach, cable.peer_port};
}

std::vector<LidTarget> lid_targets(const Topology& topo, const SwitchGraph& graph, const LidMap& lids) {
  const Lid max = lids.max_lid();
  std::vector<LidTarget> out(static_cast<std::size_t>(max) + 1);
  for (unsigned lid = 1; lid <= max; ++lid) {
    if (const auto owner = lids.owner(static_cast<Lid>(lid)))
      out[lid] = port_target(topo, graph, owner->node, owner->port);
  }
  return out;
}

std::vector<std::uint32_t> switch_components(const SwitchGraph& graph) {
  const std::size_t n = graph.num_switches();
  constexpr std::uint32_t kUnset = 0xFFFFFFFFu;
  std::vector<std::uint32_t> comp(n, kUnset);
  std::vector<SwitchIndex> stack;
  std::uint32_t next = 0;
  for (SwitchIndex root = 0; root < n; ++root) {
    if (comp[root] != kUnset) continue;
    comp[root] = next;
    stack.push_back(root);
    while (!stack.empty()) {
      const SwitchIndex s = stack.back();
      stack.pop_back();
      for (const auto& link : graph.links(s)) {
        if (comp[link.peer] == kUnset) {
          comp[link.peer] = next;
          stack.push_back(link.peer);
        }
      }
    }
    ++next;
  }
  return comp;
}

void parallel_for_chunks(std::size_t count, unsigned threads,
                         const std::function<void(std::size_t first, std::size_t last)>& fn, std::size_t grain) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(
      std::min<std::size_t>(threads, std::max<std::size_t>(1, count / std::max<std::size_t>(1, grain))));
  if (threads <= 1) {
    fn(0, count);
    return;
  }
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  const std::size_t chunk = (count + threads - 1) / threads;
  for (unsigned t = 1; t < threads; ++t) {
    const std::size_t first = std::min(count, t * chunk);
    const std::size_t last = std::min(count, first + chunk);
    pool.emplace_back([&fn, first, last] { fn(first, last); });
  }
  fn(0, std::min(count, chunk));
  for (auto& th : pool) th.join();
}

void parallel_for_dynamic(std::size_t count, unsigned threads,
                          const std::function<void(std::size_t first, std::size_t last)>& fn, std::size_t grain) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  grain = std::max<std::size_t>(1, grain);
  const std::size_t ranges = (count + grain - 1) / grain;
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, ranges));
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    for (std::size_t r; (r = next.fetch_add(1, std::memory_order_relaxed)) < ranges;) {
      fn(r * grain, std::min(count, (r + 1) * grain));
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
}

HopTable HopTable::build(const SwitchGraph& graph, unsigned threads) {
  HopTable t;
  t.n_ = graph.num_switches();
  t.hops_.assign(t.n_ * t.n_, kUnreachable);
  // Bit-parallel BFS: 64 sources advance together, one bit each, so a level costs one pass over the
  // adjacency for 64 BFS trees (O(S/64 * diameter * (S + L)) word operations instead of O(S * (S + L))).
  const std::size_t batches = (t.n_ + 63) / 64;
  parallel_for_chunks(
      batches, threads,
      [&](std::size_t first, std::size_t last) {
        std::vector<std::uint64_t> seen(t.n_);
        std::vector<std::uint64_t> frontier(t.n_);
        std::vector<std::uint64_t> next(t.n_);
        for (std::size_t batch = first; batch < last; ++batch) {
          const std::size_t base = batch * 64;
          const std::size_t width = std::min<std::size_t>(64, t.n_ - base);
          std::fill(seen.begin(), seen.end(), 0);
          std::fill(frontier.begin(), frontier.end(), 0);
          for (std::size_t b = 0; b < width; ++b) {
            seen[base + b] = frontier[base + b] = std::uint64_t{1} << b;
            t.hops_[(base + b) * t.n_ + base + b] = 0;
          }
          // Paths of 255+ hops cannot be stored in a byte; IB fabrics are far below that (DR paths alone
          // stop at 63 hops), so such switches are simply reported unreachable.
          for (unsigned level = 1; level < kUnreachable; ++level) {
            bool any = false;
            for (std::size_t v = 0; v < t.n_; ++v) {
              std::uint64_t reach = 0;
              for (const auto& link : graph.links(static_cast<SwitchIndex>(v))) reach |= frontier[link.peer];
              reach &= ~seen[v];
              next[v] = reach;
              if (reach == 0) continue;
              any = true;
              seen[v] |= reach;
              for (std::uint64_t x = reach; x != 0; x &= x - 1) {
                t.hops_[(base + std::countr_zero(x)) * t.n_ + v] = static_cast<std::uint8_t>(level);
              }
            }
            if (!any) break;
            frontier.swap(next);
          }
        }
      },
      1);
  return t;
}

std::vector<std::uint32_t> switch_distances(const SwitchGraph& graph, const std::vector<SwitchIndex>& starts) {
  std::vector<std::uint32_t> dist(graph.num_switches(), kNoDistance);
  std::vector<SwitchIndex> queue;
  for (SwitchIndex s : starts) {
    if (dist[s] == kNoDistance) {
      dist[s] = 0;
      queue.push_back(s);
    }
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const SwitchIndex u = queue[head];
    for (const auto& link : graph.links(u)) {
      if (dist[link.peer] == kNoDistance) {
        dist[link.peer] = dist[u] + 1;
        queue.push_back(link.peer);
      }
    }
  }
  return dist;
}

}  // namespace smd
