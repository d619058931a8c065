// A node for the hand-built fabrics of the routing tests: `ports` physical ports (plus port 0), no
// cables, and for a switch a LinearFDBCap far above any test's LIDs.
#pragma once

#include "routing/model/topology.h"

namespace smd::test {

inline Node make_node(NodeType type, unsigned ports, Guid guid) {
  Node n;
  n.type = type;
  n.guid = guid;
  n.num_ports = static_cast<PortNum>(ports);
  n.ports.resize(ports + 1);
  if (type == NodeType::kSwitch) n.lft_cap = 0xC000;
  return n;
}

}  // namespace smd::test
