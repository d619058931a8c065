#include "routing/engines/common/ca_destinations.h"

#include <algorithm>
#include <unordered_map>

namespace smd {

std::vector<CaDestination> ca_destinations(const Topology& topo, const LidMap& lids,
                                           const std::vector<LidTarget>& targets) {
  std::vector<CaDestination> out;
  for (const auto& e : lids.entries()) {
    if (e.owner.node >= topo.size() || topo.node(e.owner.node).is_switch()) continue;
    const LidTarget& t = targets[e.base];
    if (t.sw == kNoSwitch) continue;
    out.push_back(CaDestination{t.sw, t.port, e.base, 1u << e.lmc, e.owner.node});
  }
  return out;
}

std::vector<CaDestination> ca_order_destinations(const Topology& topo, const LidMap& lids,
                                                 const std::vector<LidTarget>& targets) {
  std::vector<CaDestination> out = ca_destinations(topo, lids, targets);
  std::sort(out.begin(), out.end(), [](const CaDestination& a, const CaDestination& b) {
    return a.sw != b.sw ? a.sw < b.sw : a.port != b.port ? a.port < b.port : a.base < b.base;
  });
  return out;
}

void put_listed_first(const Topology& topo, const LidMap& lids, std::span<const Guid> listed,
                      std::vector<CaDestination>& cas) {
  if (listed.empty()) return;
  std::unordered_map<Guid, std::size_t> position;
  for (std::size_t i = 0; i < listed.size(); ++i) position.emplace(listed[i], i);
  const auto rank = [&](const CaDestination& d) {
    const auto owner = lids.owner(d.base);
    const Node& node = topo.node(d.node);
    if (!owner || owner->port >= node.ports.size()) return listed.size();
    auto it = position.find(node.ports[owner->port].guid);
    return it == position.end() ? listed.size() : it->second;
  };
  std::stable_sort(cas.begin(), cas.end(),
                   [&](const CaDestination& a, const CaDestination& b) { return rank(a) < rank(b); });
}

RoutingTables ca_tables(const Topology& topo, const SwitchGraph& graph, const LidMap& lids,
                        const std::vector<CaDestination>& cas) {
  RoutingTables tables;
  tables.lft.resize(topo.size());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) tables.lft[graph.node(s)] = Lft(lids.max_lid());
  std::vector<std::uint8_t> listed(topo.size(), 0);
  for (const CaDestination& c : cas) {
    if (!listed[c.node]) listed[c.node] = 1, tables.ca_order.push_back(c.node);
  }
  return tables;
}

}  // namespace smd
