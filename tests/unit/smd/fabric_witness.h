// What two Topology snapshots are compared by in the incremental-sweep tests: node GUIDs and cables by
// (GUID, port) at both ends. Independent of node numbering, so an incremental sweep's result and a
// full discovery of the same fake fabric can be compared directly.
#pragma once

#include <set>
#include <tuple>

#include "routing/model/topology.h"

namespace smd::test {

/// One cable as (GUID, port, GUID, port), the lower (GUID, port) end first.
using Cable = std::tuple<Guid, PortNum, Guid, PortNum>;

/// Every cable of `t` once.
inline std::set<Cable> cables(const Topology& t) {
  std::set<Cable> out;
  for (const Node& node : t.nodes()) {
    for (const Port& p : node.ports) {
      if (!p.connected()) continue;
      Cable c{node.guid, p.num, t.node(p.peer).guid, p.peer_port};
      if (std::tie(std::get<2>(c), std::get<3>(c)) < std::tie(std::get<0>(c), std::get<1>(c))) {
        c = {std::get<2>(c), std::get<3>(c), std::get<0>(c), std::get<1>(c)};
      }
      out.insert(c);
    }
  }
  return out;
}

/// Every node GUID of `t`.
inline std::set<Guid> guids(const Topology& t) {
  std::set<Guid> out;
  for (const Node& node : t.nodes()) out.insert(node.guid);
  return out;
}

}  // namespace smd::test
