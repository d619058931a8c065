// A hand-drawn two-level tree the drain and isolation tests read their answers off:
//   spines S0 (0x300), S1 (0x400); leaves L0 (0x100), L1 (0x200) (node indexes 0..3 in that order);
//   L0 port 1 - S0 port 1, L0 port 2 - S1 port 1, L1 port 1 - S0 port 2, L1 port 2 - S1 port 2;
//   hosts h0 (0x10), h1 (0x20) on L0 ports 3, 4; h2 (0x30), h3 (0x40) on L1 ports 3, 4; the SM on h2.
// A switch's ports carry its node GUID, a CA port the node GUID plus the port number.
// Either spine alone keeps every host pair connected; both gone split L0's hosts from L1's.
#pragma once

#include <gtest/gtest.h>

#include <utility>

#include "routing/model/topology.h"
#include "tests/unit/routing/hand_node.h"

namespace smd::test {

struct TwoSpineFabric {
  Topology t;
  NodeIndex s0 = 0, s1 = 0, l0 = 0, l1 = 0, h0 = 0, h1 = 0, h2 = 0, h3 = 0;
  TwoSpineFabric() {
    s0 = add(NodeType::kSwitch, 4, 0x300, "S0");
    s1 = add(NodeType::kSwitch, 4, 0x400, "S1");
    l0 = add(NodeType::kSwitch, 4, 0x100, "L0");
    l1 = add(NodeType::kSwitch, 4, 0x200, "L1");
    h0 = add(NodeType::kCa, 1, 0x10, "h0");
    h1 = add(NodeType::kCa, 1, 0x20, "h1");
    h2 = add(NodeType::kCa, 1, 0x30, "h2");
    h3 = add(NodeType::kCa, 1, 0x40, "h3");
    cable(l0, 1, s0, 1);
    cable(l0, 2, s1, 1);
    cable(l1, 1, s0, 2);
    cable(l1, 2, s1, 2);
    cable(h0, 1, l0, 3);
    cable(h1, 1, l0, 4);
    cable(h2, 1, l1, 3);
    cable(h3, 1, l1, 4);
    t.sm_node = h2;
    t.sm_port = 1;
  }

 private:
  NodeIndex add(NodeType type, unsigned ports, Guid guid, const char* desc) {
    Node n = make_node(type, ports, guid);
    n.description = desc;
    for (PortNum p = 0; p < n.ports.size(); ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    return t.add_node(std::move(n)).value();
  }
  void cable(NodeIndex a, PortNum pa, NodeIndex b, PortNum pb) { EXPECT_TRUE(t.connect(a, pa, b, pb).ok()); }
};

}  // namespace smd::test
