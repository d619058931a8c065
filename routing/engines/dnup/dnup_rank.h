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

/// The switches with CAs (`sources[s]` > 0) that cannot climb (up-going cables only) to every local maximum
/// of `order` in their component (a switch with no up-going cable), in switch index order; empty when all
/// can. Where all can (every fat tree, leaf/spine, a CA on a spine: the tops are shared), every CA switch
/// reaches every switch down*/up*, and a switch LID between two tops turns at one valley as in updn. Where
/// some cannot (plateau tops without CAs that do not meet), routes between such tops cross CA switches in
/// both directions and a valley turn there closed channel-dependency cycles. O(tops * (switches + cables)).
std::vector<SwitchIndex> dnup_unshared_tops(const SwitchGraph& graph, const UpDownOrder& order,
                                            const std::vector<std::uint32_t>& sources);

/// The order dnup falls back to where `dnup` (dnup_order's) leaves a switch with CAs without a legal path
/// from some switch of its component (plateau tops that do not meet: a ring with CAs on every third
/// switch, random graphs with CAs on some switches; OpenSM's dnup leaves those pairs unrouted). Rank =
/// hop distance from the highest switch of each component in `dnup`, ties by position in `dnup`: updn's
/// ranking with dnup's top switch as the one root. Every other switch then has a neighbour above it, so
/// each component has one local maximum and every switch reaches every other one by climbing to it and
/// descending: legal routes everywhere, still deadlock free on one VL.
UpDownOrder dnup_single_top_order(const Topology& topo, const SwitchGraph& graph, const UpDownOrder& dnup);

}  // namespace smd
