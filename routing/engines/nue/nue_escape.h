// Nue's escape paths (Domke, Hoefler, Matsuoka, HPDC 2016, and OpenSM's osm_ucast_nue.c): per virtual layer,
// a spanning tree of each switch component, rooted at the switch most central to the layer's destinations
// (betweenness centrality, Brandes 2001, counted over shortest paths between the layer's destination
// switches only). The tree path from any switch to a destination climbs towards the root and then descends,
// never down then up, so the dependencies of all tree paths of a layer together are acyclic: they are put
// into the layer's CDG before any route is searched, and a destination whose search gets stuck takes them.
#pragma once

#include <cstdint>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/common/channels.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// The switch of each component (`component`, switch_components) with the highest betweenness over the
/// shortest paths between the switches marked in `is_destination` (indexed by SwitchIndex); ties and
/// components without a destination go to the lowest node GUID. One entry per component. Cost O(D * (S + L))
/// for D marked switches.
std::vector<SwitchIndex> central_switches(const Topology& topo, const SwitchGraph& graph,
                                          const std::vector<std::uint32_t>& component,
                                          const std::vector<bool>& is_destination);

/// A spanning tree of every component and the tree paths to any switch.
class NueEscapeTree {
 public:
  /// Shortest-path trees from `roots` (one per component) by `weight` (per channel, the channel a switch
  /// sends to its parent on; equal weights give a breadth-first tree), ties to the lower switch index and
  /// port. O((S + C) log C).
  NueEscapeTree(const SwitchGraph& graph, const ChannelIndex& channels, const std::vector<SwitchIndex>& roots,
                const std::vector<std::uint64_t>& weight);

  /// The tree path of every switch of d's component to d: `next[v]` is the channel v sends on (kNoChannel for
  /// d and for switches of other components), `order` lists d's component from d outwards (each switch after
  /// the one it sends to). O(S).
  void paths_to(SwitchIndex d, std::vector<ChannelId>& next, std::vector<SwitchIndex>& order) const;

 private:
  const SwitchGraph& graph_;
  const ChannelIndex& channels_;
  std::vector<ChannelId> up_;                 ///< [v] channel v -> parent(v), kNoChannel for roots and lone switches
  std::vector<std::vector<ChannelId>> down_;  ///< [v] channels v -> child
};

}  // namespace smd
