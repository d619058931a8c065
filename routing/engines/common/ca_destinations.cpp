#include "routing/engines/common/ca_destinations.h"

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
