#include "routing/engines/common/updn_paths.h"

#include <algorithm>
#include <numeric>

namespace smd {

UpDownOrder make_updown_order(const Topology& topo, const SwitchGraph& graph, const std::vector<std::uint32_t>& rank,
                              std::span<const std::uint64_t> ids) {
  const std::size_t n = graph.num_switches();
  UpDownOrder order;
  order.by_pos.resize(n);
  std::iota(order.by_pos.begin(), order.by_pos.end(), SwitchIndex{0});
  std::sort(order.by_pos.begin(), order.by_pos.end(), [&](SwitchIndex a, SwitchIndex b) {
    if (rank[a] != rank[b]) return rank[a] < rank[b];
    if (!ids.empty() && ids[a] != ids[b]) return ids[a] < ids[b];
    return topo.node(graph.node(a)).guid < topo.node(graph.node(b)).guid;
  });
  order.pos.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) order.pos[order.by_pos[i]] = i;
  order.up_off.assign(n + 1, 0);
  order.down_off.assign(n + 1, 0);
  for (SwitchIndex s = 0; s < n; ++s) {
    order.up_off[s] = static_cast<std::uint32_t>(order.up_links.size());
    order.down_off[s] = static_cast<std::uint32_t>(order.down_links.size());
    for (const auto& link : graph.links(s))
      (order.is_up(s, link.peer) ? order.up_links : order.down_links).push_back(link);
  }
  order.up_off[n] = static_cast<std::uint32_t>(order.up_links.size());
  order.down_off[n] = static_cast<std::uint32_t>(order.down_links.size());
  return order;
}

void DestPaths::compute(const SwitchGraph& graph, const UpDownOrder& order, SwitchIndex dst,
                        const std::vector<std::uint8_t>* allowed) {
  const std::size_t n = graph.num_switches();
  dst_ = dst;
  dist_.assign(n, kInf);
  down_only_.assign(n, 0);
  const auto ok = [&](SwitchIndex s) { return allowed == nullptr || (*allowed)[s] != 0; };

  // Switches with an all-down path: BFS backwards from dst over cables that go down towards it.
  queue_.clear();
  queue_.push_back(dst);
  dist_[dst] = 0;
  down_only_[dst] = 1;
  for (std::size_t head = 0; head < queue_.size(); ++head) {
    const SwitchIndex w = queue_[head];
    for (const auto& link : order.ups(w)) {  // v above w: v -> w goes down
      const SwitchIndex v = link.peer;
      if (dist_[v] != kInf || !ok(v)) continue;
      dist_[v] = dist_[w] + 1;
      down_only_[v] = 1;
      queue_.push_back(v);
    }
  }
  // Everything else must go up first. Up-neighbours precede a switch in the order, so one pass from the
  // top of the order sees every up-neighbour's final distance.
  for (const SwitchIndex v : order.by_pos) {
    if (dist_[v] != kInf || !ok(v)) continue;
    std::uint32_t best = kInf;
    for (const auto& link : order.ups(v)) best = std::min(best, dist_[link.peer]);
    if (best != kInf) dist_[v] = best + 1;
  }

  cand_off_.assign(n + 1, 0);
  cand_.clear();
  std::uint32_t max_dist = 0;
  for (SwitchIndex v = 0; v < n; ++v) {
    cand_off_[v] = static_cast<std::uint32_t>(cand_.size());
    if (v == dst || dist_[v] == kInf) continue;
    max_dist = std::max(max_dist, dist_[v]);
    // A down-only switch may only hand over to a down-only switch below it: the packet has turned down.
    for (const auto& link : down_only_[v] ? order.downs(v) : order.ups(v)) {
      const SwitchIndex w = link.peer;
      if (dist_[w] != kInf && dist_[w] + 1 == dist_[v] && (!down_only_[v] || down_only_[w])) cand_.push_back(link);
    }
  }
  cand_off_[n] = static_cast<std::uint32_t>(cand_.size());

  // Farthest first by counting sort on the distance.
  std::vector<std::uint32_t> bucket(static_cast<std::size_t>(max_dist) + 2, 0);
  for (SwitchIndex v = 0; v < n; ++v) {
    if (v != dst && dist_[v] != kInf) ++bucket[max_dist - dist_[v] + 1];
  }
  for (std::size_t i = 1; i < bucket.size(); ++i) bucket[i] += bucket[i - 1];
  order_.assign(bucket.back(), 0);
  for (SwitchIndex v = 0; v < n; ++v) {
    if (v != dst && dist_[v] != kInf) order_[bucket[max_dist - dist_[v]]++] = v;
  }
}

UpDownBalancer::UpDownBalancer(const SwitchGraph& graph, std::vector<std::uint32_t> sources)
    : graph_(graph),
      sources_(std::move(sources)),
      load_(graph.num_slots(), 0),
      flow_(graph.num_switches(), 0),
      spin_(graph.num_switches(), 0) {}

template <typename Write>
void UpDownBalancer::route_lids_to(const DestPaths& paths, std::span<const PortNum> deliver_ports, std::size_t m,
                                   unsigned round, Write&& write) {
  if (m == 0) return;
  flow_.resize(sources_.size() * m);
  for (std::size_t v = 0; v < sources_.size(); ++v) std::fill_n(flow_.begin() + v * m, m, sources_[v]);
  for (const SwitchIndex v : paths.farthest_first()) {
    const auto cands = paths.candidates(v);
    const std::size_t k = cands.size();
    const std::size_t start = round % k;
    std::uint64_t* load = load_.data() + graph_.port_base(v);
    for (std::size_t x = 0; x < m; ++x) {
      const std::uint32_t flow = flow_[v * m + x];
      std::size_t pick = 0;
      if (k > 1 && flow == 0) {
        // No CA sends this LID through v: any shortest legal port will do; rotate to spread switch traffic.
        pick = std::min<std::size_t>(spin_[v], k - 1);
        spin_[v] = pick + 1 < k ? static_cast<std::uint32_t>(pick + 1) : 0;
      } else if (k > 1) {
        // Least loaded from the rotated start. Key = load << 8 | candidate index (ports number at most
        // 254) makes the minimum branch-free: this runs for every (switch, LID) pair carrying CA flows.
        std::uint64_t best = ~std::uint64_t{0};
        for (std::size_t c = start; c < k; ++c) best = std::min(best, load[cands[c].port] << 8 | c);
        std::uint64_t wrapped = ~std::uint64_t{0};
        for (std::size_t c = 0; c < start; ++c) wrapped = std::min(wrapped, load[cands[c].port] << 8 | c);
        pick = static_cast<std::size_t>((wrapped >> 8) < (best >> 8) ? wrapped & 0xFF : best & 0xFF);
      }
      const auto& link = cands[pick];
      load[link.port] += flow;
      flow_[static_cast<std::size_t>(link.peer) * m + x] += flow;
      write(v, x, link.port);
    }
  }
  for (std::size_t x = 0; x < m; ++x) write(paths.dst(), x, deliver_ports[x]);
}

void UpDownBalancer::route_lids(const DestPaths& paths, std::span<const Lid> lids,
                                std::span<const PortNum> deliver_ports, unsigned round, RoutingTables& tables) {
  route_lids_to(paths, deliver_ports, lids.size(), round,
                [&](SwitchIndex v, std::size_t x, PortNum port) { tables.lft[graph_.node(v)].set(lids[x], port); });
}

namespace {

/// route_switch_lid_via_valley, with each entry handed to write(switch, port).
template <typename Write>
void valley_entries(const SwitchGraph& graph, const UpDownOrder& order, const DestPaths& legal,
                    const std::vector<std::uint32_t>& component, SwitchIndex valley, Lid lid, Write&& write) {
  const std::size_t n = graph.num_switches();
  const std::uint32_t comp = component[legal.dst()];
  std::vector<std::uint8_t> pending(n, 0);
  std::size_t left = 0;
  for (SwitchIndex v = 0; v < n; ++v) {
    if (component[v] == comp && legal.dist(v) == DestPaths::kInf) pending[v] = 1, ++left;
  }
  if (left == 0) return;

  // Paths into the valley that use only switches without a legal path of their own: a packet must not
  // meet a switch whose (legal, possibly upward) entry would make it turn somewhere else.
  if (valley != kNoSwitch && component[valley] == comp && legal.dist(valley) != DestPaths::kInf) {
    std::vector<std::uint8_t> allowed = pending;
    allowed[valley] = 1;
    DestPaths into;
    into.compute(graph, order, valley, &allowed);
    for (const SwitchIndex v : into.farthest_first()) {  // all pending: only allowed switches are reached
      const auto cands = into.candidates(v);
      write(v, cands[lid % cands.size()].port);
      pending[v] = 0;
      --left;
    }
    // On a fat tree the valley takes every switch in: skip the BFS below, which would scan the cables of
    // the whole component (O(cables) per switch LID, most of ftree's switch-LID time at 3,072 switches).
    if (left == 0) return;
  }
  // Anything left joins the nearest switch that already forwards the LID (BFS outwards from them).
  std::vector<SwitchIndex> queue;
  for (SwitchIndex v = 0; v < n; ++v) {
    if (component[v] == comp && !pending[v]) queue.push_back(v);
  }
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const SwitchIndex u = queue[head];
    for (const auto& link : graph.links(u)) {
      const SwitchIndex v = link.peer;
      if (!pending[v]) continue;
      pending[v] = 0;
      write(v, graph.peer_port(u, link.port));
      queue.push_back(v);
    }
  }
}

/// The entries of up to 64 switch LIDs for every switch, switch-major ([switch * 64 + i], kNoPort = none),
/// written into the LFTs one switch at a time. Writing them straight into the LFTs touches a different
/// table (a cache miss) for every (switch, LID); here each switch's row is touched once per block.
class SwitchLidBlock {
 public:
  static constexpr std::size_t kWidth = 64;
  explicit SwitchLidBlock(std::size_t switches) : port_(switches * kWidth, kNoPort) {}
  void set(SwitchIndex s, std::size_t i, PortNum p) { port_[s * kWidth + i] = p; }
  /// Write entry i of every switch to LID lids[i] of its LFT, then clear the block.
  void flush(const SwitchGraph& graph, std::span<const Lid> lids, RoutingTables& tables) {
    for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
      PortNum* row = port_.data() + s * kWidth;
      Lft& lft = tables.lft[graph.node(s)];
      for (std::size_t i = 0; i < lids.size(); ++i) {
        if (row[i] != kNoPort) lft.set(lids[i], row[i]);
        row[i] = kNoPort;
      }
    }
  }

 private:
  std::vector<PortNum> port_;
};

}  // namespace

void route_switch_lid_via_valley(const SwitchGraph& graph, const UpDownOrder& order, const DestPaths& legal,
                                 const std::vector<std::uint32_t>& component, SwitchIndex valley, Lid lid,
                                 RoutingTables& tables) {
  valley_entries(graph, order, legal, component, valley, lid,
                 [&](SwitchIndex v, PortNum port) { tables.lft[graph.node(v)].set(lid, port); });
}

void route_switch_lids(const SwitchGraph& graph, const UpDownOrder& order, const std::vector<LidTarget>& targets,
                       const std::vector<std::uint32_t>& component, const std::vector<std::uint32_t>& sources,
                       RoutingTables& tables, std::span<const std::uint8_t> routed) {
  std::uint32_t comps = 0;
  for (std::uint32_t c : component) comps = std::max(comps, c + 1);
  std::vector<SwitchIndex> valley(comps, kNoSwitch);
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    if (sources[s] > 0 && valley[component[s]] == kNoSwitch) valley[component[s]] = s;
  }
  for (const SwitchIndex s : order.by_pos) {
    if (valley[component[s]] == kNoSwitch || sources[valley[component[s]]] == 0) valley[component[s]] = s;
  }
  std::vector<Lid> switch_lids;
  for (std::size_t lid = 1; lid < targets.size(); ++lid) {
    if (lid < routed.size() && routed[lid]) continue;
    if (targets[lid].sw != kNoSwitch && targets[lid].port == 0) switch_lids.push_back(static_cast<Lid>(lid));
  }
  // Every Lft already covers all LIDs, so blocks write disjoint entries and never resize a table.
  constexpr std::size_t kBlock = SwitchLidBlock::kWidth;
  const std::size_t blocks = (switch_lids.size() + kBlock - 1) / kBlock;
  parallel_for_dynamic(
      blocks, 0,
      [&](std::size_t first, std::size_t last) {
        DestPaths paths;
        SwitchLidBlock staged(graph.num_switches());
        for (std::size_t b = first; b < last; ++b) {
          UpDownBalancer balancer(graph, sources);
          const std::size_t begin = b * kBlock;
          const std::size_t end = std::min(switch_lids.size(), begin + kBlock);
          for (std::size_t i = begin; i < end; ++i) {
            const Lid lid = switch_lids[i];
            const SwitchIndex dst = targets[lid].sw;
            paths.compute(graph, order, dst);
            const PortNum zero[] = {0};
            const std::size_t col = i - begin;
            balancer.route_lids_to(paths, zero, 1, 0,
                                   [&](SwitchIndex v, std::size_t, PortNum p) { staged.set(v, col, p); });
            valley_entries(graph, order, paths, component, valley[component[dst]], lid,
                           [&](SwitchIndex v, PortNum p) { staged.set(v, col, p); });
          }
          staged.flush(graph, std::span<const Lid>(switch_lids).subspan(begin, end - begin), tables);
        }
      },
      /*grain=*/1);
}

}  // namespace smd
