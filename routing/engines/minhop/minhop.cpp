#include "routing/engines/minhop/minhop.h"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "routing/engines/common/routing_order.h"

namespace smd {
namespace {

/// Set of ports of one switch (port numbers 0..255) as a 256-bit mask.
struct PortMask {
  std::array<std::uint64_t, 4> w{};
  bool empty() const { return (w[0] | w[1] | w[2] | w[3]) == 0; }
  bool operator==(const PortMask&) const = default;
  std::uint64_t hash() const {
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (auto x : w) h = (h ^ x) * 0xff51afd7ed558ccdULL;
    return h ^ (h >> 29);
  }
};

/// The equal-cost ports towards a set of destination switches that share them, with the state that
/// makes "least-loaded port, first in search order on ties" O(1) amortised: per-port LID counts only grow, so
/// the minimum over the group never decreases; `level` is a lower bound of it and every port before
/// `cursor` is known to be above `level`.
struct PortGroup {
  std::vector<PortNum> ports;  // in the switch's search order (ascending port numbers by default)
  std::uint32_t level = 0;
  std::size_t cursor = 0;

  /// The port for the next LID. `counted` false (port_prof_ignore_file, or a switch LID without
  /// port_profile_switch_nodes) leaves its count, so the cursor stays on it: it is still the least loaded.
  PortNum pick(std::array<std::uint32_t, 256>& count, const std::uint8_t* ignored) {
    for (;;) {
      while (cursor < ports.size()) {
        const PortNum p = ports[cursor];
        if (count[p] <= level) {
          if (ignored == nullptr || !ignored[p]) {
            ++count[p];
            ++cursor;
          }
          return p;
        }
        ++cursor;
      }
      std::uint32_t m = count[ports[0]];
      for (PortNum p : ports) m = std::min(m, count[p]);
      level = m;
      cursor = 0;
    }
  }
};

/// The port for the next LID when port_shifting or scatter_ports is on, as OpenSM's
/// osm_switch_recommend_path chooses it among the equal-cost ports (in search order) holding the fewest routes:
/// port_shifting scans from position (routes on the group / group size) mod size instead of the first,
/// scatter_ports takes one of the least loaded at random from `rng` (overriding the shift, as in OpenSM). O(ports).
PortNum pick_spread(const std::vector<PortNum>& ports, std::array<std::uint32_t, 256>& count,
                    const std::uint8_t* ignored, bool shifting, std::mt19937_64* rng) {
  std::uint64_t total = 0;
  std::uint32_t least = count[ports[0]];
  for (PortNum p : ports) {
    total += count[p];
    least = std::min(least, count[p]);
  }
  const std::size_t n = ports.size();
  PortNum chosen = kNoPort;
  if (rng != nullptr) {
    std::size_t ties = 0;
    for (PortNum p : ports) ties += count[p] == least ? 1 : 0;
    std::size_t k = static_cast<std::size_t>((*rng)() % ties);
    for (PortNum p : ports) {
      if (count[p] == least && k-- == 0) {
        chosen = p;
        break;
      }
    }
  } else {
    const std::size_t start = shifting ? static_cast<std::size_t>(total / n) % n : 0;
    for (std::size_t i = 0; i < n && chosen == kNoPort; ++i) {
      const PortNum p = ports[(start + i) % n];
      if (count[p] == least) chosen = p;
    }
  }
  if (ignored == nullptr || !ignored[chosen]) ++count[chosen];
  return chosen;
}

/// Per-thread scratch reused across switches (sized once per thread, not per switch).
struct Scratch {
  std::vector<std::uint32_t> group_of;  // [dst switch] -> index into groups
  std::vector<PortGroup> groups;
  std::vector<PortMask> group_mask;         // [group] -> its ports as a mask (the hash key)
  std::vector<std::uint32_t> table;         // open-addressing mask -> group + 1 (0 = empty)
  std::vector<const std::uint8_t*> rows;    // neighbour hop rows, ordered by port (links() order)
  std::vector<const std::uint32_t*> wrows;  // the same from the weighted table (hop_weights_file)
  std::vector<std::uint32_t> cost;          // weight of leaving by each neighbour's port
  std::vector<std::uint8_t> bit;            // port & 63 of each neighbour
  std::array<std::size_t, 5> word_start{};  // rows of port word w are [word_start[w], word_start[w+1])

  explicit Scratch(std::size_t n) : group_of(n) {
    std::size_t cap = 16;
    while (cap < 2 * n + 2) cap <<= 1;
    table.assign(cap, 0);
  }
};

constexpr std::uint32_t kNoGroup = 0xFFFFFFFFu;

/// Port p of s is on a shortest path to dst iff its neighbour is exactly one hop closer (plain hop counts) or,
/// with hop weights, exactly the port's weight closer: the mask of such ports for one destination.
template <bool kWeighted>
PortMask equal_cost_ports(const Scratch& sc, std::size_t dst, std::uint64_t h) {
  PortMask m;
  for (unsigned w = 0; w < 4; ++w) {
    std::uint64_t acc = 0;
    for (std::size_t i = sc.word_start[w]; i < sc.word_start[w + 1]; ++i) {
      if constexpr (kWeighted) {
        acc |= static_cast<std::uint64_t>(std::uint64_t{sc.wrows[i][dst]} + sc.cost[i] == h) << sc.bit[i];
      } else {
        acc |= static_cast<std::uint64_t>(sc.rows[i][dst] + 1u == h) << sc.bit[i];
      }
    }
    m.w[w] = acc;
  }
  return m;
}

/// Group the destination switches of s by their equal-cost port set. This S * ports loop is the bulk of the
/// engine's work, so the mask is built in registers (destination-major; the neighbours' rows stay cache
/// resident for 64 consecutive destinations) and looked up in a flat hash table, not a node-based map. A
/// group's ports are in the switch's search order (port order unless port_search_ordering_file says otherwise).
void build_groups(SwitchIndex s, const SwitchGraph& graph, const HopTable& hops, const MinhopBalancing& in,
                  Scratch& sc) {
  const std::size_t n = graph.num_switches();
  const auto links = graph.links(s);
  const BalancingPorts* ports = in.ports;
  const bool weighted = in.weighted != nullptr;
  sc.rows.clear();
  sc.wrows.clear();
  sc.cost.clear();
  sc.bit.clear();
  sc.word_start.fill(0);
  for (const auto& link : links) {  // links() is in port order, so each port word is one run
    if (weighted) {
      sc.wrows.push_back(in.weighted->row(link.peer).data());
      sc.cost.push_back(ports && !ports->weight.empty() ? ports->weight[graph.slot(s, link.port)] : 1u);
    } else {
      sc.rows.push_back(hops.row(link.peer).data());
    }
    sc.bit.push_back(static_cast<std::uint8_t>(link.port & 63));
    ++sc.word_start[(link.port >> 6) + 1];
  }
  for (unsigned w = 1; w < 5; ++w) sc.word_start[w] += sc.word_start[w - 1];
  sc.groups.clear();
  sc.group_mask.clear();
  std::fill(sc.table.begin(), sc.table.end(), 0);
  const std::size_t cap_mask = sc.table.size() - 1;
  const bool ranked = ports && !ports->search_rank.empty();
  for (std::size_t dst = 0; dst < n; ++dst) {
    sc.group_of[dst] = kNoGroup;
    std::uint64_t h = 0;
    if (weighted) {
      h = in.weighted->dist(s, static_cast<SwitchIndex>(dst));
      if (h == 0 || h == WeightedHopTable::kUnreachable) continue;
    } else {
      h = hops.hops(s, static_cast<SwitchIndex>(dst));
      if (h == 0 || h == HopTable::kUnreachable) continue;
    }
    const PortMask m = weighted ? equal_cost_ports<true>(sc, dst, h) : equal_cost_ports<false>(sc, dst, h);
    std::size_t slot = m.hash() & cap_mask;
    while (sc.table[slot] != 0 && !(sc.group_mask[sc.table[slot] - 1] == m)) slot = (slot + 1) & cap_mask;
    if (sc.table[slot] == 0) {
      PortGroup g;
      for (unsigned wi = 0; wi < 4; ++wi) {
        for (std::uint64_t x = m.w[wi]; x != 0; x &= x - 1) {
          g.ports.push_back(static_cast<PortNum>(wi * 64 + std::countr_zero(x)));
        }
      }
      if (ranked) {
        std::sort(g.ports.begin(), g.ports.end(), [&](PortNum a, PortNum b) {
          return ports->search_rank[graph.slot(s, a)] < ports->search_rank[graph.slot(s, b)];
        });
      }
      sc.groups.push_back(std::move(g));
      sc.group_mask.push_back(m);
      sc.table[slot] = static_cast<std::uint32_t>(sc.groups.size());
    }
    sc.group_of[dst] = sc.table[slot] - 1;
  }
}

/// splitmix64 of the option's seed and a switch GUID: well-spread generator seeds for neighbouring GUIDs.
std::uint64_t mix_seed(std::uint64_t seed, Guid guid) {
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL ^ guid;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

void fill_minhop_tables(const SwitchGraph& graph, const HopTable& hops, const std::vector<LidTarget>& targets,
                        Lid max_lid, RoutingTables& tables, std::span<const Lid> order,
                        const MinhopBalancing& balancing) {
  const std::size_t n = graph.num_switches();
  std::vector<Lid> ascending;
  if (order.empty()) {
    ascending.resize(std::min<std::size_t>(max_lid, targets.empty() ? 0 : targets.size() - 1));
    std::iota(ascending.begin(), ascending.end(), Lid{1});
    order = ascending;
  }
  const BalancingPorts* ports = balancing.ports;
  const bool any_ignored = ports && !ports->prof_ignored.empty();
  std::array<std::uint8_t, 256> all_ignored{};
  all_ignored.fill(1);
  parallel_for_chunks(n, 0, [&](std::size_t first, std::size_t last) {
    Scratch sc(n);
    for (std::size_t si = first; si < last; ++si) {
      const auto s = static_cast<SwitchIndex>(si);
      build_groups(s, graph, hops, balancing, sc);
      std::array<std::uint32_t, 256> count{};
      // [port] -> 1 when routes out of it are not counted (port_prof_ignore_file).
      std::array<std::uint8_t, 256> ignored{};
      if (any_ignored) {
        for (PortNum p = 0; p <= graph.num_ports(s); ++p) ignored[p] = ports->prof_ignored[graph.slot(s, p)];
      }
      // scatter_ports: one generator per switch, seeded from the option and the switch's GUID, so the
      // tables do not depend on how switches are spread over threads.
      std::optional<std::mt19937_64> rng;
      if (!balancing.scatter_seed.empty()) rng.emplace(balancing.scatter_seed[s]);
      const bool spread = rng.has_value() || balancing.port_shifting;
      Lft lft(max_lid);
      for (const Lid lid : order) {
        if (lid == 0 || lid >= targets.size() || lid > max_lid) continue;
        const LidTarget& t = targets[lid];
        if (t.sw == kNoSwitch) continue;
        // A switch's own LID leaves by port 0 (t.port); without port_profile_switch_nodes it is not counted.
        const bool switch_lid = t.port == 0;
        const std::uint8_t* skip = switch_lid && !balancing.count_switch_lids ? all_ignored.data() : ignored.data();
        if (t.sw == s) {
          lft.set(static_cast<Lid>(lid), t.port);
          if (!skip[t.port]) ++count[t.port];
          continue;
        }
        const std::uint32_t g = sc.group_of[t.sw];
        if (g == kNoGroup) continue;  // other component: leave kNoPort
        PortGroup& group = sc.groups[g];
        lft.set(static_cast<Lid>(lid),
                spread ? pick_spread(group.ports, count, skip, balancing.port_shifting, rng ? &*rng : nullptr)
                       : group.pick(count, skip));
      }
      tables.lft[graph.node(s)] = std::move(lft);
    }
  });
}

Result<RoutingTables> MinHopEngine::compute(const Topology& topo, const LidMap& lids) const {
  if (lids.max_lid() == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  const SwitchGraph graph = SwitchGraph::build(topo);
  const auto targets = lid_targets(topo, graph, lids);
  RoutingTables tables;
  tables.engine = std::string(name());
  tables.deadlock_free = false;
  tables.lft.resize(topo.size());
  DestinationOrder order;  // empty: increasing LIDs
  if (!options_.guid_routing_order.empty()) order = destination_order(topo, lids, options_.guid_routing_order);
  if (auto note = unknown_order_note(name(), order.unknown); !note.empty()) tables.notes.push_back(std::move(note));
  // The balancing inputs (OpenSM's hop_weights_file, port_search_ordering_file, port_prof_ignore_file,
  // port_profile_switch_nodes), resolved on this fabric; the weighted table only when weights were given.
  const BalancingPorts ports = resolve_balancing_ports(topo, graph, name(), options_.hop_weights,
                                                       options_.port_search_ordering, options_.port_prof_ignore);
  for (const std::string& note : ports.notes) tables.notes.push_back(note);
  std::optional<WeightedHopTable> weighted;
  if (!ports.weight.empty()) weighted = WeightedHopTable::build(graph, ports.weight);
  const HopTable hops = weighted ? HopTable{} : HopTable::build(graph);  // one of the two tables is read
  MinhopBalancing balancing;
  balancing.ports = &ports;
  balancing.weighted = weighted ? &*weighted : nullptr;
  balancing.count_switch_lids = options_.port_profile_switch_nodes;
  balancing.port_shifting = options_.port_shifting;
  std::vector<std::uint64_t> seeds;
  if (options_.scatter_ports != 0) {
    seeds.resize(graph.num_switches());
    for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
      seeds[s] = mix_seed(options_.scatter_ports, topo.node(graph.node(s)).guid);
    }
    balancing.scatter_seed = seeds;
  }
  fill_minhop_tables(graph, hops, targets, lids.max_lid(), tables, order.lids, balancing);
  return tables;
}

}  // namespace smd
