#include "routing/model/components.h"

#include <algorithm>

namespace smd {

std::vector<std::vector<NodeIndex>> connected_components(const Topology& topo) {
  constexpr std::size_t kUnseen = static_cast<std::size_t>(-1);
  std::vector<std::size_t> component(topo.size(), kUnseen);
  std::vector<std::vector<NodeIndex>> out;
  std::vector<NodeIndex> stack;
  for (NodeIndex start = 0; start < topo.size(); ++start) {
    if (component[start] != kUnseen) continue;
    const std::size_t id = out.size();
    out.emplace_back();
    component[start] = id;
    stack.push_back(start);
    while (!stack.empty()) {
      const NodeIndex n = stack.back();
      stack.pop_back();
      out[id].push_back(n);
      for (const Port& p : topo.node(n).ports) {
        if (!p.connected() || p.peer >= topo.size() || component[p.peer] != kUnseen) continue;
        component[p.peer] = id;
        stack.push_back(p.peer);
      }
    }
    std::sort(out[id].begin(), out[id].end());
  }
  return out;
}

std::string describe_islands(const Topology& topo, const std::vector<std::vector<NodeIndex>>& islands,
                             std::size_t names_per_island, std::size_t max_islands) {
  std::string s = std::to_string(islands.size()) + (islands.size() == 1 ? " island:" : " islands:");
  for (std::size_t i = 0; i < islands.size() && i < max_islands; ++i) {
    const auto& island = islands[i];
    s += " [" + std::to_string(island.size()) + (island.size() == 1 ? " node: " : " nodes: ");
    for (std::size_t k = 0; k < island.size() && k < names_per_island; ++k) {
      const Node& node = topo.node(island[k]);
      s += (k ? ", " : "") + (node.description.empty() ? format_guid(node.guid) : node.description);
    }
    if (island.size() > names_per_island) s += ", ...";
    s += "]";
  }
  if (islands.size() > max_islands) s += " and " + std::to_string(islands.size() - max_islands) + " more";
  return s;
}

}  // namespace smd
