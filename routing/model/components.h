// Connected components of a fabric: which nodes a cable path joins. A planner refuses a netfile whose
// fabric falls apart into islands, and discovery leaves out nodes it can no longer reach from the SM.
#pragma once

#include <string>
#include <vector>

#include "routing/model/topology.h"

namespace smd {

/// The nodes of `topo` grouped by connected component over cables (every cable joins its two ends; a
/// node without cables is a component of its own). Components are ordered by their lowest NodeIndex and
/// list their nodes in ascending order. O(nodes + ports).
std::vector<std::vector<NodeIndex>> connected_components(const Topology& topo);

/// The islands LID routing sees: like connected_components, but only switches forward, so a CA (or router)
/// with ports cabled to two switch groups joins neither to the other (IBA 18.2: an end node consumes or
/// sources packets, it does not relay them). Each component is a group of switches joined by switch
/// cables with the end nodes cabled to it; an end node in several lists each, one cabled to no switch
/// (two CAs back to back) forms a component with its peers. Ordered and sorted as connected_components.
/// O(nodes + ports).
std::vector<std::vector<NodeIndex>> forwarding_components(const Topology& topo);

/// "2 islands: [4 nodes: host-0, leaf-0, host-1, ...] [1 node: host-9]": components for a message,
/// each named by up to `names_per_island` node descriptions (GUID when a node has none), at most
/// `max_islands` of them listed.
std::string describe_islands(const Topology& topo, const std::vector<std::vector<NodeIndex>>& islands,
                             std::size_t names_per_island = 4, std::size_t max_islands = 8);

}  // namespace smd
