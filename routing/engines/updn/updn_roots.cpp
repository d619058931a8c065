#include "routing/engines/updn/updn_roots.h"

#include <algorithm>

namespace smd {
namespace {

constexpr std::uint32_t kUnset = kNoDistance;

std::uint32_t eccentricity(const SwitchGraph& graph, SwitchIndex s) {
  std::uint32_t ecc = 0;
  for (std::uint32_t d : switch_distances(graph, {s})) {
    if (d != kUnset) ecc = std::max(ecc, d);
  }
  return ecc;
}

SwitchIndex farthest(const std::vector<std::uint32_t>& dist, const std::vector<SwitchIndex>& members) {
  SwitchIndex best = members.front();
  for (SwitchIndex s : members) {
    if (dist[s] != kUnset && dist[s] > dist[best]) best = s;
  }
  return best;
}

SwitchIndex center_of(const SwitchGraph& graph, const std::vector<SwitchIndex>& members) {
  std::size_t edges = 0;
  for (SwitchIndex s : members) edges += graph.links(s).size();
  std::vector<SwitchIndex> candidates;
  if (members.size() * (members.size() + edges) <= 100'000'000) {
    candidates = members;
  } else {
    // Double sweep: a and b lie near the two ends of a diameter; the centre is about halfway between.
    const SwitchIndex a = farthest(switch_distances(graph, {members.front()}), members);
    const auto da = switch_distances(graph, {a});
    const SwitchIndex b = farthest(da, members);
    const auto db = switch_distances(graph, {b});
    candidates = members;
    std::sort(candidates.begin(), candidates.end(), [&](SwitchIndex x, SwitchIndex y) {
      const auto kx = std::max(da[x], db[x]);
      const auto ky = std::max(da[y], db[y]);
      return kx != ky ? kx < ky : x < y;
    });
    candidates.resize(std::min<std::size_t>(candidates.size(), 16));
  }
  SwitchIndex best = candidates.front();
  std::uint32_t best_ecc = kUnset;
  for (SwitchIndex s : candidates) {
    const std::uint32_t e = eccentricity(graph, s);
    if (e < best_ecc || (e == best_ecc && s < best)) best = s, best_ecc = e;
  }
  return best;
}

std::vector<std::vector<SwitchIndex>> members_by_component(const std::vector<std::uint32_t>& component) {
  std::uint32_t count = 0;
  for (std::uint32_t c : component) count = std::max(count, c + 1);
  std::vector<std::vector<SwitchIndex>> out(count);
  for (SwitchIndex s = 0; s < component.size(); ++s) out[component[s]].push_back(s);
  return out;
}

/// Top-level switches of a fat-tree-shaped component that reach every leaf going down, or empty.
std::vector<SwitchIndex> fat_tree_tops(const SwitchGraph& graph, const std::vector<SwitchIndex>& members,
                                       const std::vector<std::uint32_t>& level,
                                       const std::vector<std::uint32_t>& sources) {
  std::uint32_t top = 0;
  std::size_t leaves = 0;
  for (SwitchIndex s : members) {
    if (level[s] != kUnset) top = std::max(top, level[s]);
    leaves += sources[s] > 0 ? 1 : 0;
  }
  if (leaves == 0 || top == 0) return {};
  std::vector<SwitchIndex> tops;
  std::vector<std::uint8_t> seen(graph.num_switches(), 0);
  std::vector<SwitchIndex> stack;
  for (SwitchIndex c : members) {
    if (level[c] != top) continue;
    std::size_t covered = 0;
    std::vector<SwitchIndex> visited{c};
    seen[c] = 1;
    stack.assign(1, c);
    while (!stack.empty()) {
      const SwitchIndex u = stack.back();
      stack.pop_back();
      covered += sources[u] > 0 ? 1 : 0;
      for (const auto& link : graph.links(u)) {
        const SwitchIndex v = link.peer;
        if (seen[v] || level[v] == kUnset || level[v] + 1 != level[u]) continue;
        seen[v] = 1;
        visited.push_back(v);
        stack.push_back(v);
      }
    }
    for (SwitchIndex v : visited) seen[v] = 0;
    if (covered == leaves) tops.push_back(c);
  }
  return tops;
}

}  // namespace

std::vector<SwitchIndex> choose_center_roots(const SwitchGraph& graph, const std::vector<std::uint32_t>& component) {
  std::vector<SwitchIndex> roots;
  for (const auto& members : members_by_component(component)) {
    if (!members.empty()) roots.push_back(center_of(graph, members));
  }
  return roots;
}

std::vector<SwitchIndex> choose_updn_roots(const SwitchGraph& graph, const std::vector<std::uint32_t>& component,
                                           const std::vector<std::uint32_t>& sources) {
  std::vector<SwitchIndex> leaves;
  for (SwitchIndex s = 0; s < sources.size(); ++s) {
    if (sources[s] > 0) leaves.push_back(s);
  }
  const auto level = switch_distances(graph, leaves);
  std::vector<SwitchIndex> roots;
  for (const auto& members : members_by_component(component)) {
    if (members.empty()) continue;
    auto tops = fat_tree_tops(graph, members, level, sources);
    if (tops.empty()) tops.push_back(center_of(graph, members));
    roots.insert(roots.end(), tops.begin(), tops.end());
  }
  return roots;
}

std::vector<std::uint32_t> rank_from_roots(const SwitchGraph& graph, const std::vector<SwitchIndex>& roots) {
  return switch_distances(graph, roots);
}

}  // namespace smd
