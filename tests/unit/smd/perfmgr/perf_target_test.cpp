// perf_targets: which ports the PerfMgr reads and through which LID, on a hand-built fabric (one switch,
// two hosts, a dangling switch port, a host without a LID). Expected lists written out by hand.
#include "smd/perfmgr/perf_target.h"

#include <gtest/gtest.h>

#include "routing/isolation/routed_topology.h"

namespace smd::perf_target_test {
namespace {

struct Fabric {
  Topology topo;
  LidMap lids;
  NodeIndex sw = 0, h1 = 0, h2 = 0, h3 = 0;
};

Fabric make_fabric() {
  Fabric f;
  auto add = [&](Guid guid, NodeType type, PortNum nports, const char* desc) {
    Node n;
    n.guid = guid;
    n.type = type;
    n.description = desc;
    n.num_ports = nports;
    n.ports.resize(nports + 1u);
    for (PortNum p = 0; p <= nports; ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    auto idx = f.topo.add_node(std::move(n));
    EXPECT_TRUE(idx.ok());
    return *idx;
  };
  f.sw = add(0x200, NodeType::kSwitch, 4, "sw");
  f.h1 = add(0x100, NodeType::kCa, 1, "h1");
  f.h2 = add(0x110, NodeType::kCa, 2, "h2");
  f.h3 = add(0x120, NodeType::kCa, 1, "h3");
  EXPECT_TRUE(f.topo.connect(f.sw, 1, f.h1, 1).ok());
  EXPECT_TRUE(f.topo.connect(f.sw, 2, f.h2, 2).ok());  // h2 port 1 is not cabled
  EXPECT_TRUE(f.topo.connect(f.sw, 4, f.h3, 1).ok());  // h3 has no LID: its PMA cannot be reached
  EXPECT_TRUE(f.lids.assign(f.sw, 0, 1, 0).ok());
  EXPECT_TRUE(f.lids.assign(f.h1, 1, 2, 0).ok());
  EXPECT_TRUE(f.lids.assign(f.h2, 2, 3, 0).ok());
  return f;
}

std::vector<std::pair<Guid, unsigned>> keys_and_lids(const std::vector<PerfTarget>& targets) {
  std::vector<std::pair<Guid, unsigned>> out;
  for (const PerfTarget& t : targets) out.emplace_back(t.key.node_guid, t.key.port * 100u + t.lid);
  return out;
}

TEST(PerfTargets, EveryCabledPortWithALid) {
  const Fabric f = make_fabric();
  const auto targets = perf_targets(f.topo, f.lids, NodeNames());
  // (node GUID, port * 100 + PMA LID): the switch's ports 1, 2, 4 behind its port-0 LID 1; h1 port 1 at
  // LID 2; h2 port 2 at LID 3; nothing of h3 (no LID), nothing of the switch's uncabled port 3.
  EXPECT_EQ(keys_and_lids(targets), (std::vector<std::pair<Guid, unsigned>>{
                                        {0x200, 101}, {0x200, 201}, {0x200, 401}, {0x100, 102}, {0x110, 203}}));
  EXPECT_EQ(targets[3].port_guid, 0x101u);
  EXPECT_EQ(targets[0].port_guid, 0x200u);
}

TEST(PerfTargets, IgnoreCasReadsSwitchPortsOnly) {
  const Fabric f = make_fabric();
  const auto targets = perf_targets(f.topo, f.lids, NodeNames(), /*ignore_cas=*/true);
  EXPECT_EQ(keys_and_lids(targets),
            (std::vector<std::pair<Guid, unsigned>>{{0x200, 101}, {0x200, 201}, {0x200, 401}}));
}

// A drained switch keeps its LID but no route leads to it: its ports, and those of the CA behind it, are not
// polled (each would time out every pass); a CA port whose own cable is drained neither. The fabric above
// plus a second switch sw2 (0x300) on sw port 3 with host h4 (0x130) on its port 1; the SM on h1. Drained
// (routing/isolation's routed_topology, as the sweep drains): sw2 whole and h2's cable.
TEST(PerfTargets, DrainedAndCutOffPortsAreNotPolled) {
  Fabric f = make_fabric();
  auto add = [&](Guid guid, NodeType type, PortNum nports) {
    Node n;
    n.guid = guid;
    n.type = type;
    n.num_ports = nports;
    n.ports.resize(nports + 1u);
    for (PortNum p = 0; p <= nports; ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    return f.topo.add_node(std::move(n)).value();
  };
  const NodeIndex sw2 = add(0x300, NodeType::kSwitch, 2);
  const NodeIndex h4 = add(0x130, NodeType::kCa, 1);
  ASSERT_TRUE(f.topo.connect(f.sw, 3, sw2, 2).ok());
  ASSERT_TRUE(f.topo.connect(sw2, 1, h4, 1).ok());
  ASSERT_TRUE(f.lids.assign(sw2, 0, 4, 0).ok());
  ASSERT_TRUE(f.lids.assign(h4, 1, 5, 0).ok());
  f.topo.sm_node = f.h1;
  f.topo.sm_port = 1;
  const std::vector<PerfTarget> all = perf_targets(f.topo, f.lids, NodeNames());
  ASSERT_EQ(all.size(), 9u);  // sw 1-4, sw2 1-2, h1, h2 port 2, h4
  std::size_t skipped = 99;
  EXPECT_EQ(lid_reachable(all, f.topo, skipped).size(), 9u);  // nothing drained: everything polled
  EXPECT_EQ(skipped, 0u);
  const std::vector<CableEnd> drains{{sw2, 0}, {f.h2, 2}};
  const RoutedTopology routed = routed_topology(f.topo, drains, {});
  const std::vector<PerfTarget> polled = lid_reachable(all, routed.topo, skipped);
  // sw's ports stay (its LID is reached; port 3 and 2 face a drained cable but their counters still read);
  // sw2's two ports, h2 port 2 and h4 go.
  EXPECT_EQ(keys_and_lids(polled), (std::vector<std::pair<Guid, unsigned>>{
                                       {0x200, 101}, {0x200, 201}, {0x200, 301}, {0x200, 401}, {0x100, 102}}));
  EXPECT_EQ(skipped, 4u);
  Topology no_sm = routed.topo;
  no_sm.sm_node = kNoNode;
  EXPECT_EQ(lid_reachable(all, no_sm, skipped).size(), 9u);  // no SM node known: nothing left out
}

}  // namespace
}  // namespace smd::perf_target_test
