#include "routing/mcast/mcast_quality.h"

#include <algorithm>
#include <vector>

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
    for (const auto& [guid, mask] : tree.switches) {
      const auto n = topo.find(guid);
      if (!n) continue;
      const SwitchIndex s = graph.index_of(*n);
      if (s == kNoSwitch) continue;
      mask.for_each([&](PortNum p) {
        if (p == 0 || p > graph.num_ports(s)) return;
        const SwitchIndex peer = graph.peer_switch(s, p);
        if (peer == kNoSwitch) return;
        const std::uint32_t c = std::min(graph.slot(s, p), graph.slot(peer, graph.peer_port(s, p)));
        if (seen[c] == stamp) return;
        seen[c] = stamp;
        ++load[c];
      });
    }
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
