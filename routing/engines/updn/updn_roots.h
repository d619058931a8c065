// Root selection for up*/down* routing. The roots decide where traffic turns: on a fat tree the turns
// belong on every top-level switch (one root = every inter-pod flow through one spine), on any other
// graph a single central root keeps up*/down* paths short. Both choices work on any connected graph.
#pragma once

#include <cstdint>
#include <vector>

#include "routing/model/hop_table.h"

namespace smd {

/// Automatic roots, per connected component of the switch graph:
///   - fat-tree shape: level = BFS distance from the CA-attached switches; the switches of the highest
///     level whose downward closure (cables to a strictly lower level) covers every CA-attached switch of
///     the component. These are the spines of a fat tree, leaf/spine or Clos; an empty leaf that only
///     happens to be as far from the CAs is not chosen because it covers only its own pod;
///   - otherwise (torus, mesh, random graph, CAs everywhere, no CAs): the single switch of minimum
///     eccentricity (ties: lowest switch index), i.e. the centre of the graph, so the BFS ranks are as
///     flat as possible and up*/down* detours stay short.
/// `sources[s]` = CA ports cabled to switch s. Returns at least one root per component.
std::vector<SwitchIndex> choose_updn_roots(const SwitchGraph& graph, const std::vector<std::uint32_t>& component,
                                           const std::vector<std::uint32_t>& sources);

/// One centre switch per component (minimum eccentricity). Exact BFS from every switch while that costs
/// at most ~10^8 steps; above that the centre is estimated with a double sweep (the switches halfway
/// between the two ends of a long shortest path) and the best of 16 candidates is taken.
std::vector<SwitchIndex> choose_center_roots(const SwitchGraph& graph, const std::vector<std::uint32_t>& component);

/// Rank = BFS hop distance from the nearest root; switches no root reaches get 0xFFFFFFFF.
std::vector<std::uint32_t> rank_from_roots(const SwitchGraph& graph, const std::vector<SwitchIndex>& roots);

}  // namespace smd
