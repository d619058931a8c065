// Cutting cables and nodes out of an observed fabric while keeping its per-node records aligned with
// the renumbered topology. Shared by the
// discovery vet (discovery_vet.h) and by the incremental sweep (incremental_discovery.h).
#pragma once

#include <vector>

#include "smd/fabric/observed.h"

namespace smd {

/// Nodes reachable from the SM's node over the cables not `cut` ([node][port]) between nodes still
/// `keep` ([node]); only switches, and the SM's own node, forward. All false when the SM's node is
/// unknown or not kept.
std::vector<bool> reachable_from_sm(const Topology& topo, const std::vector<bool>& keep,
                                    const std::vector<std::vector<bool>>& cut);

/// Replace `d.topo` by the subset of nodes `keep` and cables not `cut`, renumbering the nodes in their
/// old order; the node records follow. `problems` and `smps` are left as they are.
void keep_subset(ObservedFabric& d, const std::vector<bool>& keep, const std::vector<std::vector<bool>>& cut);

}  // namespace smd
