#include "routing/model/components.h"

#include <algorithm>

namespace smd {

namespace {

constexpr std::size_t kUnseen = static_cast<std::size_t>(-1);

/// Depth-first flood from `start` as a new component appended to `out`, over the cables `crosses(from, to)`
/// allows, marking `component`.
template <typename Crosses>
void flood(const Topology& topo, NodeIndex start, std::vector<std::size_t>& component,
           std::vector<std::vector<NodeIndex>>& out, Crosses crosses) {
  const std::size_t id = out.size();
  out.emplace_back();
  component[start] = id;
  std::vector<NodeIndex> stack{start};
  while (!stack.empty()) {
    const NodeIndex n = stack.back();
    stack.pop_back();
    out[id].push_back(n);
    for (const Port& p : topo.node(n).ports) {
      if (!p.connected() || p.peer >= topo.size() || component[p.peer] != kUnseen || !crosses(n, p.peer)) continue;
      component[p.peer] = id;
      stack.push_back(p.peer);
    }
  }
}

}  // namespace

std::vector<std::vector<NodeIndex>> connected_components(const Topology& topo) {
  std::vector<std::size_t> component(topo.size(), kUnseen);
  std::vector<std::vector<NodeIndex>> out;
  for (NodeIndex start = 0; start < topo.size(); ++start) {
    if (component[start] != kUnseen) continue;
    flood(topo, start, component, out, [](NodeIndex, NodeIndex) { return true; });
    std::sort(out.back().begin(), out.back().end());
  }
  return out;
}

std::vector<std::vector<NodeIndex>> forwarding_components(const Topology& topo) {
  // Components over switch cables first, and over end-node cables between end nodes (CA back to back).
  std::vector<std::size_t> component(topo.size(), kUnseen);
  std::vector<std::vector<NodeIndex>> out;
  const auto is_switch = [&](NodeIndex n) { return topo.node(n).is_switch(); };
  for (NodeIndex start = 0; start < topo.size(); ++start) {
    if (component[start] != kUnseen) continue;
    // An end node cabled to a switch joins that switch's component below, not one of its own.
    const bool on_switch = !is_switch(start) && std::any_of(topo.node(start).ports.begin(), topo.node(start).ports.end(),
                                                              [&](const Port& p) {
                                                                return p.connected() && p.peer < topo.size() &&
                                                                       is_switch(p.peer);
                                                              });
    if (on_switch) continue;
    // Switches spread over switch cables; end nodes only to end nodes (they relay nothing to a switch).
    flood(topo, start, component, out, [&](NodeIndex from, NodeIndex to) { return is_switch(from) == is_switch(to); });
  }
  // Every end node into the component of each switch it is cabled to (once: `last` is the node each
  // component took last, and nodes come in order).
  std::vector<NodeIndex> last(out.size(), kNoNode);
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    if (is_switch(n)) continue;
    for (const Port& p : topo.node(n).ports) {
      if (!p.connected() || p.peer >= topo.size() || !is_switch(p.peer)) continue;
      const std::size_t id = component[p.peer];
      if (last[id] == n) continue;
      last[id] = n;
      out[id].push_back(n);
    }
  }
  for (std::vector<NodeIndex>& list : out) std::sort(list.begin(), list.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
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
