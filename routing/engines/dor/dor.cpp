#include "routing/engines/dor/dor.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <string>

#include "routing/engines/common/balancing_ports.h"
#include "routing/engines/common/routing_order.h"
#include "routing/model/hop_table.h"

namespace smd {
namespace {

/// The cables of one switch grouped by the neighbour they lead to, in port order, and for every
/// destination switch the group dimension order picks.
struct NeighbourChoice {
  std::vector<std::vector<PortNum>> ports;  // [group] the parallel cables to one neighbour, in dimension order
  std::vector<std::uint32_t> group_of;      // [destination switch] -> group, kNone when none
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  /// `rank` ([slot] place in the switch's dimension order, routing.dor.port_search_ordering_file) orders the
  /// cables; empty = port order.
  NeighbourChoice(const SwitchGraph& graph, const HopTable& hops, SwitchIndex s, const std::vector<std::uint8_t>& rank)
      : group_of(graph.num_switches(), kNone) {
    std::vector<SwitchGraph::Link> links(graph.links(s).begin(), graph.links(s).end());
    if (!rank.empty()) {
      std::stable_sort(links.begin(), links.end(), [&](const SwitchGraph::Link& a, const SwitchGraph::Link& b) {
        return rank[graph.slot(s, a.port)] < rank[graph.slot(s, b.port)];
      });
    }
    std::vector<std::uint32_t> group_of_link(links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
      std::size_t j = 0;
      while (j < i && links[j].peer != links[i].peer) ++j;
      if (j == i) {
        group_of_link[i] = static_cast<std::uint32_t>(ports.size());
        ports.emplace_back();
      } else {
        group_of_link[i] = group_of_link[j];
      }
      ports[group_of_link[i]].push_back(links[i].port);
    }
    for (SwitchIndex d = 0; d < graph.num_switches(); ++d) {
      const unsigned h = hops.hops(s, d);
      if (h == 0 || h == HopTable::kUnreachable) continue;
      // links is in dimension order: the first one a hop closer is the dimension to correct next.
      for (std::size_t i = 0; i < links.size(); ++i) {
        if (hops.hops(links[i].peer, d) + 1u == h) {
          group_of[d] = group_of_link[i];
          break;
        }
      }
    }
  }
};

}  // namespace

Result<RoutingTables> DorEngine::compute(const Topology& topo, const LidMap& lids) const {
  if (lids.max_lid() == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  const SwitchGraph graph = SwitchGraph::build(topo);
  const HopTable hops = HopTable::build(graph);
  const std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  const Lid max_lid = lids.max_lid();
  RoutingTables tables;
  tables.engine = std::string(name());
  tables.deadlock_free = false;
  tables.lft.resize(topo.size());
  DestinationOrder order;
  if (!options_.guid_routing_order.empty()) order = destination_order(topo, lids, options_.guid_routing_order);
  if (auto note = unknown_order_note(name(), order.unknown); !note.empty()) tables.notes.push_back(std::move(note));
  // OpenSM's port_search_ordering_file: each listed switch's dimension order.
  const BalancingPorts dims = resolve_balancing_ports(topo, graph, name(), {}, options_.port_search_ordering, {});
  for (const std::string& note : dims.notes) tables.notes.push_back(note);
  if (order.lids.empty()) {
    order.lids.resize(std::min<std::size_t>(max_lid, targets.size() - 1));
    std::iota(order.lids.begin(), order.lids.end(), Lid{1});
  }
  parallel_for_chunks(graph.num_switches(), 0, [&](std::size_t first, std::size_t last) {
    for (std::size_t si = first; si < last; ++si) {
      const auto s = static_cast<SwitchIndex>(si);
      const NeighbourChoice choice(graph, hops, s, dims.search_rank);
      std::array<std::uint32_t, 256> ca_lids{};  // CA LIDs routed out of each port so far
      Lft lft(max_lid);
      for (const Lid lid : order.lids) {
        if (lid == 0 || lid >= targets.size() || lid > max_lid) continue;
        const LidTarget& t = targets[lid];
        if (t.sw == kNoSwitch) continue;
        const bool switch_lid = t.port == 0;
        PortNum port = t.port;
        if (t.sw != s) {
          const std::uint32_t g = choice.group_of[t.sw];
          if (g == NeighbourChoice::kNone) continue;  // another component: kNoPort
          port = choice.ports[g].front();
          for (PortNum p : choice.ports[g]) {
            if (ca_lids[p] < ca_lids[port]) port = p;
          }
        }
        lft.set(lid, port);
        if (!switch_lid) ++ca_lids[port];
      }
      tables.lft[graph.node(s)] = std::move(lft);
    }
  });
  return tables;
}

}  // namespace smd
