// The switch-to-switch cables a multicast tree's masks use, as the tree builder counts its load and the
// quality report measures it. One cable has one id, the lower flat slot of its two ends, so a load table
// indexed by it counts each cable once whichever end names it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "routing/mcast/mcast_tables.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// Id of the cable at (s, p): the lower flat slot of its two ends. (s, p) must be cabled to a switch.
inline std::uint32_t mcast_cable(const SwitchGraph& graph, SwitchIndex s, PortNum p) {
  const SwitchIndex peer = graph.peer_switch(s, p);
  return std::min(graph.slot(s, p), graph.slot(peer, graph.peer_port(s, p)));
}

/// Calls fn(s, p, cable) for every port p of `tree`'s masks that is cabled to another switch of `graph`
/// (port 0, host ports, ports beyond NumPorts and switches absent from `topo` are skipped): each cable
/// twice when both of its ends hold it. O(tree ports).
template <class Fn>
void for_each_tree_cable(const Topology& topo, const SwitchGraph& graph, const McastTree& tree, Fn&& fn) {
  for (const auto& [guid, mask] : tree.switches) {
    const auto n = topo.find(guid);
    if (!n) continue;
    const SwitchIndex s = graph.index_of(*n);
    if (s == kNoSwitch) continue;
    mask.for_each([&](PortNum p) {
      if (p == 0 || p > graph.num_ports(s) || graph.peer_switch(s, p) == kNoSwitch) return;
      fn(s, p, mcast_cable(graph, s, p));
    });
  }
}

}  // namespace smd
