#include "routing/engines/ftree/ftree.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "routing/engines/common/ar_groups.h"
#include "routing/engines/common/ca_destinations.h"
#include "routing/engines/common/updn_paths.h"
#include "routing/engines/ftree/ftree_levels.h"
#include "routing/engines/ftree/ftree_node_lists.h"
#include "routing/engines/ftree/ftree_non_cn.h"
#include "routing/model/hop_table.h"
#include "routing/model/lid_major_lfts.h"

namespace smd {
namespace {

constexpr std::uint32_t kInf = 0xFFFFFFFFu;

std::string switch_name(const Topology& topo, const SwitchGraph& graph, SwitchIndex s) {
  return describe_node(topo.node(graph.node(s)));
}

/// One CA port as a destination (its switch is a leaf), with its index in the CA order.
using CaPort = CaDestination;

/// Shortest up-then-down routes of every switch towards one destination leaf.
struct LeafPaths {
  SwitchIndex leaf = kNoSwitch;
  std::vector<std::uint8_t> ancestor;  // [switch] has a down path to the leaf (the leaf included)
  std::vector<std::uint32_t> dist;     // [switch] hops to the leaf, kInf if none
  std::vector<std::uint32_t> cand_off;
  std::vector<SwitchGraph::Link> cand;  // ancestors: down-links to ancestors; others: shortest up-links

  std::span<const SwitchGraph::Link> candidates(SwitchIndex s) const {
    return {cand.data() + cand_off[s], cand.data() + cand_off[s + 1]};
  }

  void compute(const FatTreeLevels& t, const std::vector<std::vector<SwitchIndex>>& by_level, SwitchIndex dst) {
    const std::size_t n = t.level.size();
    leaf = dst;
    ancestor.assign(n, 0);
    dist.assign(n, kInf);
    std::vector<SwitchIndex> queue{dst};
    ancestor[dst] = 1;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      for (const auto& link : t.up[queue[head]]) {
        if (!ancestor[link.peer]) ancestor[link.peer] = 1, queue.push_back(link.peer);
      }
    }
    // In a layered graph a down path from level l is l cables long; others go up to the nearest one.
    for (std::uint32_t l = t.top + 1; l-- > 0;) {
      for (SwitchIndex v : by_level[l]) {
        if (ancestor[v]) {
          dist[v] = l;
          continue;
        }
        std::uint32_t best = kInf;
        for (const auto& link : t.up[v]) best = std::min(best, dist[link.peer]);
        if (best != kInf) dist[v] = best + 1;
      }
    }
    cand_off.assign(n + 1, 0);
    cand.clear();
    for (SwitchIndex v = 0; v < n; ++v) {
      cand_off[v] = static_cast<std::uint32_t>(cand.size());
      if (v == dst || dist[v] == kInf) continue;
      if (ancestor[v]) {
        for (const auto& link : t.down[v]) {
          if (ancestor[link.peer]) cand.push_back(link);
        }
      } else {
        for (const auto& link : t.up[v]) {
          if (dist[link.peer] + 1 == dist[v]) cand.push_back(link);
        }
      }
    }
    cand_off[n] = static_cast<std::uint32_t>(cand.size());
  }
};

/// The spine paths of every CA LID, in routing order: route r climbs from its destination leaf
/// switch(r, 0) to switch(r, top); switch(r, l) sends the LID down by down_port(r, l) (l >= 1), and
/// scale(r, l) is the product of the spine's up-port counts below level l (the d-mod-k digit divisor).
class SpinePaths {
 public:
  SpinePaths(const SwitchGraph& graph, const FatTreeLevels& t)
      : graph_(graph), t_(t), width_(t.top + 1), spine_load_(graph.num_slots(), 0) {}

  /// Choose the spine path of the next route: LID with CA index j and LMC offset x, delivered on `leaf`.
  /// Sequential by nature: each choice reads the down-link loads the earlier ones left. Returns the route.
  std::uint32_t add(SwitchIndex leaf, std::uint64_t j, unsigned x) {
    const auto r = static_cast<std::uint32_t>(sw_.size() / width_);
    sw_.resize(sw_.size() + width_);
    down_.resize(down_.size() + width_, kNoPort);
    scale_.resize(scale_.size() + width_, 1);
    SwitchIndex* sw = &sw_[r * width_];
    PortNum* down = &down_[r * width_];
    std::uint64_t* scale = &scale_[r * width_];
    sw[0] = leaf;
    SwitchIndex s = leaf;
    for (std::uint32_t l = 0; l < t_.top; ++l) {
      const auto& ups = t_.up[s];
      const std::size_t w = ups.size();
      const std::size_t digit = (j / scale[l] + x) % w;
      std::uint64_t best = ~std::uint64_t{0};
      for (std::size_t c = 0; c < w; ++c) {
        // Fewest destinations routed down this cable first; among equals, the nearest to the digit.
        best = std::min(best, spine_load_[graph_.slot(s, ups[c].port)] << 8 | ((c + w - digit) % w));
      }
      const auto& link = ups[((best & 0xFF) + digit) % w];
      ++spine_load_[graph_.slot(s, link.port)];
      sw[l + 1] = link.peer;
      down[l + 1] = graph_.peer_port(s, link.port);
      scale[l + 1] = std::min<std::uint64_t>(scale[l] * w, std::uint64_t{1} << 40);
      s = link.peer;
    }
    return r;
  }

  std::span<const SwitchIndex> switches(std::uint32_t r) const { return {&sw_[r * width_], width_}; }
  std::span<const PortNum> down_ports(std::uint32_t r) const { return {&down_[r * width_], width_}; }
  std::span<const std::uint64_t> scales(std::uint32_t r) const { return {&scale_[r * width_], width_}; }

 private:
  const SwitchGraph& graph_;
  const FatTreeLevels& t_;
  std::size_t width_;                      // levels on a spine path: top + 1
  std::vector<std::uint64_t> spine_load_;  // [slot] destinations whose spine path uses this up-cable
  std::vector<SwitchIndex> sw_;            // [route * width_ + level]
  std::vector<PortNum> down_;              // [route * width_ + level]
  std::vector<std::uint64_t> scale_;       // [route * width_ + level]
};

/// Every switch's out-port for one LID once its spine path is chosen (see FatTreeEngine). Routes of
/// different LIDs are independent here, so one filler per thread fills them in parallel.
class RowFiller {
 public:
  RowFiller(const SwitchGraph& graph, const FatTreeLevels& t)
      : graph_(graph),
        t_(t),
        spine_stamp_(graph.num_switches(), 0),
        good_stamp_(graph.num_switches(), 0),
        spine_port_(graph.num_switches(), 0),
        digit_w_(t.top + 1, 0),
        digit_(t.top + 1, 0) {}

  /// Fill `row` ([switch] -> out-port) for route r of `spines` (CA index j, LMC offset x), delivered at
  /// `deliver` on the leaf of `lp`.
  void fill(const LeafPaths& lp, const SpinePaths& spines, std::uint32_t r, PortNum deliver, std::uint64_t j,
            unsigned x, PortNum* row) {
    const std::uint32_t stamp = ++stamp_;
    const auto spine = spines.switches(r);
    const auto down = spines.down_ports(r);
    scale_ = spines.scales(r);
    j_ = j;
    x_ = x;
    std::fill(digit_w_.begin(), digit_w_.end(), 0);
    spread_w_ = 0;
    for (std::size_t l = 0; l < spine.size(); ++l) {
      spine_stamp_[spine[l]] = stamp;
      spine_port_[spine[l]] = down[l];
    }
    // "Good" switches reach the spine path on a shortest route: found downwards from the spine.
    queue_.assign(spine.begin() + 1, spine.end());
    for (SwitchIndex u : queue_) good_stamp_[u] = stamp;
    for (std::size_t head = 0; head < queue_.size(); ++head) {
      const SwitchIndex u = queue_[head];
      for (const auto& link : t_.down[u]) {
        const SwitchIndex v = link.peer;
        if (lp.ancestor[v] || good_stamp_[v] == stamp || lp.dist[v] != lp.dist[u] + 1) continue;
        good_stamp_[v] = stamp;
        queue_.push_back(v);
      }
    }
    const std::size_t n = graph_.num_switches();
    for (SwitchIndex v = 0; v < n; ++v) {
      PortNum port = kNoPort;
      const auto cands = lp.candidates(v);
      if (v == lp.leaf) {
        port = deliver;
      } else if (spine_stamp_[v] == stamp) {
        port = spine_port_[v];
      } else if (cands.empty()) {
        port = kNoPort;
      } else if (lp.ancestor[v]) {
        port = cands[spread(cands.size())].port;
        for (const auto& c : cands) {
          if (spine_stamp_[c.peer] == stamp) port = c.port;
        }
      } else {
        port = up_port(lp, v, cands, good_stamp_[v] == stamp);
      }
      row[v] = port;
    }
  }

 private:
  /// (j / scale(level) + x) mod w: the d-mod-k digit at `level`, computed once per route and level (the
  /// divisions would otherwise run once per switch and LID).
  std::size_t digit(std::uint32_t level, std::size_t w) {
    if (digit_w_[level] != w) digit_w_[level] = w, digit_[level] = (j_ / scale_[level] + x_) % w;
    return digit_[level];
  }
  /// (j + x) mod w, the rotation among equal candidates, likewise cached (w is nearly always the same).
  std::size_t spread(std::size_t w) {
    if (spread_w_ != w) spread_w_ = w, spread_ = (j_ + x_) % w;
    return spread_;
  }

  PortNum up_port(const LeafPaths& lp, SwitchIndex v, std::span<const SwitchGraph::Link> cands, bool good) {
    const auto& ups = t_.up[v];
    const auto& by_digit = ups[digit(t_.level[v], ups.size())];
    const bool shortest = lp.dist[by_digit.peer] + 1 == lp.dist[v];
    if (!good) return shortest ? by_digit.port : cands[spread(cands.size())].port;
    if (shortest && good_stamp_[by_digit.peer] == stamp_) return by_digit.port;
    for (const auto& c : cands) {
      if (good_stamp_[c.peer] == stamp_) return c.port;
    }
    return cands.front().port;
  }

  const SwitchGraph& graph_;
  const FatTreeLevels& t_;
  std::vector<std::uint32_t> spine_stamp_;  // [switch] == stamp_: on the current spine path
  std::vector<std::uint32_t> good_stamp_;   // [switch] == stamp_: reaches the spine path on a shortest route
  std::vector<PortNum> spine_port_;         // [switch] down-port of a spine switch for the current LID
  std::vector<SwitchIndex> queue_;
  std::uint32_t stamp_ = 0;
  std::span<const std::uint64_t> scale_;  // the current route's digit divisors by level
  std::uint64_t j_ = 0;
  unsigned x_ = 0;
  std::vector<std::size_t> digit_w_;  // [level] up-port count digit_ was computed for, 0 = not yet
  std::vector<std::size_t> digit_;
  std::size_t spread_w_ = 0;
  std::size_t spread_ = 0;
};

/// Leaf groups: CA ports [first, last) of `cas` (in CA order) share a destination leaf.
std::vector<std::pair<std::size_t, std::size_t>> leaf_groups(const std::vector<CaPort>& cas) {
  std::vector<std::pair<std::size_t, std::size_t>> groups;
  for (std::size_t i = 0; i < cas.size();) {
    std::size_t end = i;
    while (end < cas.size() && cas[end].sw == cas[i].sw) ++end;
    groups.emplace_back(i, end);
    i = end;
  }
  return groups;
}

/// Why a switch that cannot reach `leaf` going up then down declines the fabric. `hostless`: it may be a
/// leaf whose hosts are all down, taken for a top switch.
Error unreachable_leaf(const Topology& topo, const SwitchGraph& graph, SwitchIndex v, SwitchIndex leaf, bool hostless) {
  return make_error(ErrorCode::kDeclined,
                    "not a fat tree: switch " + switch_name(topo, graph, v) + " cannot reach leaf " +
                        switch_name(topo, graph, leaf) + " going up then down" +
                        (hostless ? " (if it is a leaf whose hosts are all down, name the top switches in "
                                    "routing.ftree.roots: levels are then counted from them)"
                                  : ""));
}

/// The CA LIDs' rows of one compute(): spine paths first, then every switch's entry.
class CaLidRouter {
 public:
  CaLidRouter(const Topology& topo, const SwitchGraph& graph, const FatTreeLevels& t, const std::vector<CaPort>& cas,
              const std::vector<std::uint32_t>& sources, bool roots_configured)
      : topo_(topo),
        graph_(graph),
        t_(t),
        cas_(cas),
        sources_(sources),
        roots_configured_(roots_configured),
        by_level_(t.top + 1) {
    for (SwitchIndex s = 0; s < graph.num_switches(); ++s) by_level_[t.level[s]].push_back(s);
    for (const CaPort& c : cas) rounds_ = std::max(rounds_, c.count);
  }

  /// Switches of each level, 0 = leaves.
  const std::vector<std::vector<SwitchIndex>>& by_level() const { return by_level_; }

  /// Every CA LID's row of `staged`; declines when a switch cannot reach some leaf going up then down.
  Status route(const std::vector<std::pair<std::size_t, std::size_t>>& groups, LidMajorLfts& staged) {
    // Spine paths first, in the order the load balance depends on (round by round, leaf by leaf).
    SpinePaths spines(graph_, t_);
    route_of_.assign(cas_.size() * rounds_, kNoRoute);  // [x * cas + k]
    for (unsigned x = 0; x < rounds_; ++x) {
      for (std::size_t k = 0; k < cas_.size(); ++k) {
        if (x < cas_[k].count) route_of_[x * cas_.size() + k] = spines.add(cas_[k].sw, k, x);
      }
    }
    // Then every switch's entry for every CA LID, leaf group by leaf group on all threads, staged LID-major.
    std::vector<std::optional<Error>> declined(groups.size());
    parallel_for_chunks(
        groups.size(), 0,
        [&](std::size_t first, std::size_t last) {
          LeafPaths lp;
          RowFiller filler(graph_, t_);
          for (std::size_t g = first; g < last; ++g) declined[g] = fill_group(groups[g], spines, lp, filler, staged);
        },
        4);
    for (const auto& d : declined) {
      if (d) return *d;
    }
    return Ok{};
  }

 private:
  static constexpr std::uint32_t kNoRoute = 0xFFFFFFFFu;

  // The rows of the CA ports [i, end) on one leaf, every round.
  std::optional<Error> fill_group(std::pair<std::size_t, std::size_t> group, const SpinePaths& spines, LeafPaths& lp,
                                  RowFiller& filler, LidMajorLfts& staged) const {
    const auto [i, end] = group;
    lp.compute(t_, by_level_, cas_[i].sw);
    if (const auto cut = std::find(lp.dist.begin(), lp.dist.end(), kInf); cut != lp.dist.end()) {
      const auto v = static_cast<SwitchIndex>(cut - lp.dist.begin());
      // Levels are counted up from the switches with CAs: a leaf whose hosts are all down (a rack
      // powered off) looks like a top switch. Configured roots count down from the top instead.
      return unreachable_leaf(topo_, graph_, v, cas_[i].sw, sources_[v] == 0 && !roots_configured_);
    }
    for (unsigned x = 0; x < rounds_; ++x) {
      for (std::size_t k = i; k < end; ++k) {
        const std::uint32_t r = route_of_[x * cas_.size() + k];
        if (r == kNoRoute) continue;
        const auto lid = static_cast<Lid>(cas_[k].base + x);
        filler.fill(lp, spines, r, cas_[k].port, k, x, staged.row(lid));
      }
    }
    return std::nullopt;
  }

  const Topology& topo_;
  const SwitchGraph& graph_;
  const FatTreeLevels& t_;
  const std::vector<CaPort>& cas_;
  const std::vector<std::uint32_t>& sources_;
  bool roots_configured_;
  std::vector<std::vector<SwitchIndex>> by_level_;
  unsigned rounds_ = 1;                  // LIDs per CA port at most (2^LMC)
  std::vector<std::uint32_t> route_of_;  // [x * cas + k] spine path of LID base+x of CA port k
};

/// A leaf switch's own LIDs follow the route of its first CA port's base LID and end at port 0: the same
/// legal shortest up-then-down path minus the delivering cable, so the channel dependencies are a subset
/// of that route's. This routes a third of a 3-level tree's switch LIDs for the cost of a row copy
/// (route_switch_lids spends a BFS over every cable per LID). Returns [LID] 1 for the LIDs so routed.
std::vector<std::uint8_t> copy_leaf_switch_lids(const std::vector<CaPort>& cas,
                                                const std::vector<std::pair<std::size_t, std::size_t>>& groups,
                                                const std::vector<LidTarget>& targets, std::size_t n,
                                                LidMajorLfts& staged) {
  std::vector<Lid> leaf_route(n, 0);  // [switch] base LID of its first CA port in `cas` order, 0 = none
  for (const auto& [i, end] : groups) leaf_route[cas[i].sw] = cas[i].base;
  std::vector<std::uint8_t> copied(targets.size(), 0);
  for (std::size_t lid = 1; lid < targets.size(); ++lid) {
    const LidTarget& tgt = targets[lid];
    if (tgt.sw == kNoSwitch || tgt.port != 0 || leaf_route[tgt.sw] == 0) continue;
    const PortNum* from = staged.row(leaf_route[tgt.sw]);
    PortNum* row = staged.row(static_cast<Lid>(lid));
    std::copy(from, from + n, row);
    row[tgt.sw] = 0;
    copied[lid] = 1;
  }
  return copied;
}

}  // namespace

Result<RoutingTables> FatTreeEngine::compute(const Topology& topo, const LidMap& lids) const {
  // Errors carry no "ftree: " prefix: the chain (and the planner) name the engine with every error.
  if (lids.max_lid() == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  const SwitchGraph graph = SwitchGraph::build(topo);
  const std::size_t n = graph.num_switches();
  const auto targets = lid_targets(topo, graph, lids);
  auto split = split_compute_nodes(topo, graph, ca_destinations(topo, lids, targets), options_);
  if (!split) return split.error();
  std::vector<CaPort>& cas = split->cns;
  // Only compute nodes make leaves: I/O nodes may hang off any level (OpenSM: CNs on one rank).
  std::vector<std::uint32_t> sources(n, 0);
  for (const CaPort& c : cas) ++sources[c.sw];
  auto levels = recognise_fat_tree(topo, graph, sources, options_.roots);
  if (!levels) return levels.error();
  const FatTreeLevels& t = *levels;

  // CA order: leaves in leaf_order, CA ports by port number.
  std::vector<std::uint32_t> leaf_rank(n, 0);
  for (std::uint32_t i = 0; i < t.leaf_order.size(); ++i) leaf_rank[t.leaf_order[i]] = i;
  std::sort(cas.begin(), cas.end(), [&](const CaPort& a, const CaPort& b) {
    return a.sw != b.sw ? leaf_rank[a.sw] < leaf_rank[b.sw] : a.port < b.port;
  });
  RoutingTables tables = ca_tables(topo, graph, lids, cas);
  tables.engine = "ftree";
  tables.notes = std::move(split->notes);

  CaLidRouter router(topo, graph, t, cas, sources, !options_.roots.empty());
  for (SwitchIndex s : router.by_level()[t.top]) tables.tree_roots.push_back(topo.node(graph.node(s)).guid);
  const auto groups = leaf_groups(cas);
  LidMajorLfts staged(n, lids.max_lid());
  if (auto routed = router.route(groups, staged); !routed) return routed.error();
  // Non-CN ports after every CN, so their loads never move a CN route.
  auto non_cn = route_non_cns(topo, graph, t, split->others, staged);
  if (!non_cn) return non_cn.error();
  // A down-then-up turn leaves up*/down*: promise nothing, the verifier reports what the graph is.
  tables.deadlock_free = non_cn->reverse_routes == 0;
  if (non_cn->reverse_routes > 0) tables.notes.push_back(reverse_hops_note(*non_cn));
  const std::vector<std::uint8_t> copied = copy_leaf_switch_lids(cas, groups, targets, n, staged);
  staged.store(graph, tables);

  // Other switch LIDs: up*/down* in level order (higher level = up), spine-to-spine through one valley.
  std::vector<std::uint32_t> rank(n);
  for (SwitchIndex s = 0; s < n; ++s) rank[s] = t.top - t.level[s];
  const UpDownOrder order = make_updown_order(topo, graph, rank);
  route_switch_lids(graph, order, targets, switch_components(graph), sources, tables, copied);
  // routing.adaptive (issue 4): AR groups over the level order (CA LIDs follow it as LeafPaths do).
  if (adaptive_) {
    if (auto st = attach_ar_plan(topo, lids, order, tables); !st) return st.error();
  }
  return tables;
}

}  // namespace smd
