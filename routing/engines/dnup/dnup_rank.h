// The ranks and switch order of down*/up* routing (OpenSM's dnup, 3.3). updn ranks switches from roots;
// dnup ranks them from the CAs, so a fabric whose CAs hang off several tiers (a storage node on a spine,
// hosts and uplinks on one switch) needs no root GUIDs: every switch that has a CA is rank 0, every other
// one is one more than its lowest-ranked neighbour switch (BFS over switch cables).
#pragma once

#include <cstdint>
#include <vector>

#include "routing/engines/common/updn_paths.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// Rank of every switch: hop distance over switch cables from the nearest switch with a CA (`sources[s]` =
/// CA ports cabled to switch s, > 0 = rank 0). A component without CAs is ranked 0 throughout (its order
/// then comes from the plateau rule of dnup_order). Sized graph.num_switches().
std::vector<std::uint32_t> dnup_ranks(const SwitchGraph& graph, const std::vector<std::uint32_t>& sources);

/// Between switches of one rank, how far (cables between switches of that rank) a switch is from one that
/// has a neighbour of higher rank: 0 for such a switch. A plateau (switches of one rank, connected by
/// cables between them, none with a higher-ranked neighbour: the spines of a fat tree, a torus whose
/// switches all have CAs) counts from its lowest-GUID switch instead, plus `graph.num_switches()` so that
/// plateau switches sort after every switch that climbs to a higher rank.
std::vector<std::uint32_t> dnup_lift(const Topology& topo, const SwitchGraph& graph,
                                     const std::vector<std::uint32_t>& rank);

/// The strict order packets climb in: higher rank first (farther from the CAs is "up"), then lower lift,
/// then lower node GUID. A legal route climbs, then descends (dnup's "down*, then up*" in OpenSM's naming,
/// whose "up" points at the CAs), so it cannot close a cycle of channel dependencies on one VL.
/// OpenSM leaves cables between switches of equal rank unordered (usable in both directions at any point
/// of a route, e.g. a torus whose switches all have CAs is then routed min-hop, with credit loops); the
/// lift orders them so that a switch that can climb no further within its rank is reached from a higher
/// one, and every switch but one per plateau has a cable up: a switch can reach every switch with a CA
/// wherever all plateau tops above it are shared (every fat tree, leaf/spine, a CA on a spine or a core).
UpDownOrder dnup_order(const Topology& topo, const SwitchGraph& graph, const std::vector<std::uint32_t>& sources);

}  // namespace smd
