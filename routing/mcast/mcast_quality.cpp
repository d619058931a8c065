#include "routing/mcast/mcast_quality.h"

#include <algorithm>
#include <vector>

#include "routing/mcast/mcast_cables.h"
#include "routing/model/hop_table.h"

namespace smd {

McastLinkLoad mcast_link_load(const Topology& topo, const McastTables& tables) {
  const SwitchGraph graph = SwitchGraph::build(topo);
  McastLinkLoad out;
  out.links = graph.num_switch_channels() / 2;
  std::vector<std::uint32_t> load(graph.num_slots(), 0);
  std::vector<std::uint32_t> seen(graph.num_slots(), 0);  // MLID stamp: one count per group and cable
  std::uint32_t stamp = 0;
  for (const auto& [mlid, tree] : tables.trees) {
    if (tree.switches.empty()) continue;
    ++out.trees;
    ++stamp;
    for_each_tree_cable(topo, graph, tree, [&](SwitchIndex, PortNum, std::uint32_t c) {
      if (seen[c] == stamp) return;
      seen[c] = stamp;
      ++load[c];
    });
  }
  std::uint64_t total = 0;
  for (std::uint32_t l : load) {
    if (l == 0) continue;
    ++out.links_used;
    total += l;
    out.max_groups_per_link = std::max(out.max_groups_per_link, l);
  }
  if (out.links_used > 0)
    out.mean_groups_per_used_link = static_cast<double>(total) / static_cast<double>(out.links_used);
  return out;
}

}  // namespace smd
