#include "routing/engines/ftree/ftree_levels.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <string>

namespace smd {
namespace {

constexpr std::uint32_t kUnset = kNoDistance;

std::string name_of(const Topology& topo, const SwitchGraph& graph, SwitchIndex s) {
  return describe_node(topo.node(graph.node(s)));
}

Error declined(const std::string& why) { return make_error(ErrorCode::kDeclined, "not a fat tree: " + why); }

/// Sort leaves so that every level-l subtree is contiguous (see FatTreeLevels::leaf_order).
std::vector<SwitchIndex> order_leaves(const SwitchGraph& graph, const FatTreeLevels& t) {
  const std::size_t n = graph.num_switches();
  std::vector<SwitchIndex> leaves;
  for (SwitchIndex s = 0; s < n; ++s) {
    if (t.level[s] == 0) leaves.push_back(s);
  }
  // group[l][leaf] = id of the leaf's subtree at level l, numbered by the subtree's first leaf index.
  std::vector<std::vector<std::uint32_t>> group(t.top + 1, std::vector<std::uint32_t>(n, kUnset));
  std::vector<SwitchIndex> stack;
  for (std::uint32_t l = 1; l < t.top; ++l) {
    std::vector<std::uint32_t>& g = group[l];
    std::uint32_t next = 0;
    for (SwitchIndex leaf : leaves) {
      if (g[leaf] != kUnset) continue;
      g[leaf] = next;
      stack.assign(1, leaf);
      while (!stack.empty()) {
        const SwitchIndex u = stack.back();
        stack.pop_back();
        for (const auto& link : graph.links(u)) {
          if (t.level[link.peer] <= l && g[link.peer] == kUnset) g[link.peer] = next, stack.push_back(link.peer);
        }
      }
      ++next;
    }
  }
  std::stable_sort(leaves.begin(), leaves.end(), [&](SwitchIndex a, SwitchIndex b) {
    for (std::uint32_t l = t.top; l-- > 1;) {
      if (group[l][a] != group[l][b]) return group[l][a] < group[l][b];
    }
    return a < b;
  });
  return leaves;
}

}  // namespace

Result<FatTreeLevels> recognise_fat_tree(const Topology& topo, const SwitchGraph& graph,
                                         const std::vector<std::uint32_t>& sources, const std::vector<Guid>& roots) {
  const std::size_t n = graph.num_switches();
  std::vector<SwitchIndex> leaves;
  for (SwitchIndex s = 0; s < n; ++s) {
    if (sources[s] > 0) leaves.push_back(s);
  }
  if (leaves.empty()) return declined("no CA is cabled to a switch");

  FatTreeLevels t;
  if (!roots.empty()) {
    std::vector<SwitchIndex> starts;
    for (Guid g : roots) {
      const auto node = topo.find(g);
      const SwitchIndex s = node ? graph.index_of(*node) : kNoSwitch;
      if (s == kNoSwitch) {
        return make_error(ErrorCode::kInvalidInput,
                          "routing.ftree.roots: " + format_guid(g) + " is not a switch of the fabric");
      }
      starts.push_back(s);
    }
    const auto height = switch_distances(graph, starts);
    for (SwitchIndex s = 0; s < n; ++s) {
      if (height[s] == kUnset) return declined("switch " + name_of(topo, graph, s) + " is not connected to the roots");
      t.top = std::max(t.top, height[s]);
    }
    t.level.resize(n);
    for (SwitchIndex s = 0; s < n; ++s) t.level[s] = t.top - height[s];
    for (SwitchIndex s : leaves) {
      if (t.level[s] != 0) {
        return declined("switch " + name_of(topo, graph, s) + " has CAs but is at level " + std::to_string(t.level[s]));
      }
    }
  } else {
    t.level = switch_distances(graph, leaves);
    for (SwitchIndex s = 0; s < n; ++s) {
      if (t.level[s] == kUnset)
        return declined("switch " + name_of(topo, graph, s) + " is not connected to the leaves");
      t.top = std::max(t.top, t.level[s]);
    }
  }

  t.up.resize(n);
  t.down.resize(n);
  for (SwitchIndex s = 0; s < n; ++s) {
    for (const auto& link : graph.links(s)) {
      const std::uint32_t a = t.level[s];
      const std::uint32_t b = t.level[link.peer];
      if (b == a + 1) {
        t.up[s].push_back(link);
      } else if (b + 1 == a) {
        t.down[s].push_back(link);
      } else {
        return declined("cable " + name_of(topo, graph, s) + " port " + std::to_string(link.port) + " -> " +
                        name_of(topo, graph, link.peer) + " joins levels " + std::to_string(a) + " and " +
                        std::to_string(b) + (a == b && a == 0 ? " (CAs at several levels, or a torus/mesh?)" : ""));
      }
    }
    if (t.level[s] < t.top && t.up[s].empty()) {
      return declined("switch " + name_of(topo, graph, s) + " at level " + std::to_string(t.level[s]) +
                      " has no up-link below the top level " + std::to_string(t.top));
    }
  }
  if (t.top == 0 && n > 1) return declined("several leaf switches and no spine");
  t.leaf_order = order_leaves(graph, t);
  return t;
}

}  // namespace smd
