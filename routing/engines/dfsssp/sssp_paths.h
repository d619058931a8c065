// Globally balanced shortest paths (SSSP: Hoefler, Schneider, Lumsdaine, HOTI 2009). One Dijkstra per
// destination LID over the switch graph, on channel weights that grow with the routes already placed, so
// each destination's in-tree avoids the channels earlier destinations loaded.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "routing/engines/common/channels.h"
#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"

namespace smd {

/// What the balancing did, for tests and the report.
struct SsspStats {
  std::size_t destinations = 0;  ///< LIDs routed (each LID of an LMC range counts)
  std::uint64_t max_load = 0;    ///< highest channel load after the last destination (source ports crossing)
};

/// For every LID 1..max_lid whose target switch is known (`targets`, lid_targets), in LID order:
///   - Dijkstra from the target switch over reversed channels, channel weight = hop + load, where hop =
///     max(64, source ports of the fabric) keeps paths shortest unless the loads differ by a hop's worth;
///     ties go to the less loaded channel, then to the lower channel id (lower port), so the result is
///     deterministic;
///   - every switch's entry is the port of its first channel towards the target (the target port at the
///     target switch); a switch in another component keeps kNoPort;
///   - then every channel of the in-tree gains the number of source endpoints (CA and router ports cabled
///     to a switch; switches themselves are not counted) whose route crosses it.
/// The 2^LMC LIDs of a port are separate destinations, so consecutive LIDs spread over different paths.
/// `lft` is indexed by NodeIndex and sized by the caller; each switch's table is (re)made to cover 0..max_lid.
/// Cost O(LIDs * (C + S) log S) for C channels and S switches; sequential by nature (each destination
/// depends on the loads of the previous ones).
/// `order` (destination_order(), each LID at most once) replaces the LID order when not empty.
SsspStats route_balanced_shortest_paths(const SwitchGraph& graph, const ChannelIndex& channels,
                                        const std::vector<LidTarget>& targets, Lid max_lid, std::vector<Lft>& lft,
                                        std::span<const Lid> order = {});

/// Source endpoints behind each switch of `graph`: its cabled ports that lead to a CA or router. O(ports).
std::vector<std::uint32_t> source_ports(const SwitchGraph& graph);

}  // namespace smd
