// Cable isolation (routing/isolation/cable_isolation.h): on hand-built fabrics whose answers are read off
// the drawing, and on a generated leaf/spine fabric routed without the isolated cable.
#include "routing/isolation/cable_isolation.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "tests/unit/routing/hand_node.h"
#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"

namespace smd::cable_isolation_test {
namespace {

using test::make_node;

NodeIndex add(Topology& t, NodeType type, unsigned ports, Guid guid, const char* desc) {
  Node n = make_node(type, ports, guid);
  n.description = desc;
  return t.add_node(std::move(n)).value();
}

void cable(Topology& t, NodeIndex a, PortNum pa, NodeIndex b, PortNum pb) { ASSERT_TRUE(t.connect(a, pa, b, pb).ok()); }

// s0 =2 cables= s1, host h0 on s0 port 3 (the SM), host h1 on s1 port 3.
struct TwoSwitches {
  Topology t;
  NodeIndex s0 = 0, s1 = 0, h0 = 0, h1 = 0;
  TwoSwitches() {
    s0 = add(t, NodeType::kSwitch, 4, 0x100, "sw0");
    s1 = add(t, NodeType::kSwitch, 4, 0x200, "sw1");
    h0 = add(t, NodeType::kCa, 1, 0x10, "h0");
    h1 = add(t, NodeType::kCa, 1, 0x11, "h1");
    cable(t, s0, 1, s1, 1);
    cable(t, s0, 2, s1, 2);
    cable(t, h0, 1, s0, 3);
    cable(t, h1, 1, s1, 3);
    t.sm_node = h0;
    t.sm_port = 1;
  }
};

TEST(CableIsolation, FirstOfTwoParallelCablesIsIsolatedTheSecondIsKept) {
  TwoSwitches f;
  const std::vector<CableEnd> req{{f.s0, 1}, {f.s1, 2}};
  const auto d = plan_isolation(f.t, req);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_TRUE(d[0].isolated);
  EXPECT_EQ(d[0].reason, "");
  EXPECT_EQ(d[0].end, (CableEnd{f.s0, 1}));
  EXPECT_EQ(d[0].peer, (CableEnd{f.s1, 1}));
  EXPECT_FALSE(d[1].isolated);
  EXPECT_EQ(d[1].peer, (CableEnd{f.s0, 2}));
  // The SM (h0) sits on sw0, so the side lost is sw1's.
  EXPECT_EQ(d[1].reason, "would cut off switch 0x0000000000000200 (sw1) from the SM");
}

TEST(CableIsolation, WithoutAnSmTheReasonNamesTheSplit) {
  TwoSwitches f;
  f.t.sm_node = kNoNode;
  const std::vector<CableEnd> req{{f.s0, 1}, {f.s0, 2}};
  const auto d = plan_isolation(f.t, req);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_TRUE(d[0].isolated);
  EXPECT_FALSE(d[1].isolated);
  EXPECT_EQ(d[1].reason,
            "would split the switches: 0x0000000000000100 (sw0) would no longer reach 0x0000000000000200 (sw1)");
}

TEST(CableIsolation, SmOnTheFarSideNamesTheNearSwitch) {
  TwoSwitches f;
  f.t.sm_node = f.h1;  // the SM behind sw1: asking from sw0 cuts off sw0
  const std::vector<CableEnd> req{{f.s0, 1}, {f.s0, 2}};
  const auto d = plan_isolation(f.t, req);
  EXPECT_EQ(d[1].reason, "would cut off switch 0x0000000000000100 (sw0) from the SM");
}

TEST(CableIsolation, BothEndsOfOneCableAreDecidedOnce) {
  TwoSwitches f;
  // s0:1 and s1:1 are one cable; with it isolated, s0:2 is the last cable and must stay.
  const std::vector<CableEnd> req{{f.s0, 1}, {f.s1, 1}, {f.s0, 2}, {f.s0, 2}};
  const auto d = plan_isolation(f.t, req);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_TRUE(d[0].isolated);
  EXPECT_TRUE(d[1].isolated) << "the second end gets the first's decision, not a second removal";
  EXPECT_EQ(d[1].end, (CableEnd{f.s1, 1}));
  EXPECT_EQ(d[1].peer, (CableEnd{f.s0, 1}));
  EXPECT_FALSE(d[2].isolated);
  EXPECT_FALSE(d[3].isolated);
  EXPECT_EQ(d[3].reason, d[2].reason);
}

TEST(CableIsolation, ACaPortsCableIsNeverIsolatedFromEitherEnd) {
  TwoSwitches f;
  const std::vector<CableEnd> req{{f.h1, 1}, {f.s0, 3}};
  const auto d = plan_isolation(f.t, req);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_FALSE(d[0].isolated);
  EXPECT_EQ(d[0].peer, (CableEnd{f.s1, 3}));
  EXPECT_EQ(d[0].reason, "would cut off 0x0000000000000011 (h1) port 1: it is a CA port's only link");
  EXPECT_FALSE(d[1].isolated);
  EXPECT_EQ(d[1].reason, "would cut off 0x0000000000000010 (h0) port 1: it is a CA port's only link");
}

TEST(CableIsolation, UncabledAndMissingPorts) {
  TwoSwitches f;
  const std::vector<CableEnd> req{{f.s0, 4}, {f.s0, 0}, {f.s0, 5}, {99, 1}};
  const auto d = plan_isolation(f.t, req);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0].reason, "not cabled");
  EXPECT_EQ(d[0].peer.node, kNoNode);
  EXPECT_EQ(d[1].reason, "no such port");
  EXPECT_EQ(d[2].reason, "no such port");
  EXPECT_EQ(d[3].reason, "no such port");
  for (const auto& x : d) EXPECT_FALSE(x.isolated);
}

TEST(CableIsolation, ALeafWithOneUplinkKeepsIt) {
  // spine - leaf0 (one cable), spine - leaf1 (two cables).
  Topology t;
  const NodeIndex spine = add(t, NodeType::kSwitch, 4, 0x1, "spine");
  const NodeIndex leaf0 = add(t, NodeType::kSwitch, 4, 0x2, "leaf0");
  const NodeIndex leaf1 = add(t, NodeType::kSwitch, 4, 0x3, "leaf1");
  cable(t, spine, 1, leaf0, 1);
  cable(t, spine, 2, leaf1, 1);
  cable(t, spine, 3, leaf1, 2);
  t.sm_node = spine;
  const std::vector<CableEnd> req{{leaf0, 1}, {leaf1, 2}};
  const auto d = plan_isolation(t, req);
  EXPECT_FALSE(d[0].isolated);
  EXPECT_EQ(d[0].reason, "would cut off switch 0x0000000000000002 (leaf0) from the SM");
  EXPECT_TRUE(d[1].isolated);
}

TEST(CableIsolation, RingOfFourOneCableYesThenTheOppositeOneNo) {
  // s0 -1:2- s1 -1:2- s2 -1:2- s3 -1:2- s0: without two opposite cables the ring falls in two halves.
  Topology t;
  std::vector<NodeIndex> s;
  for (Guid g = 1; g <= 4; ++g) s.push_back(add(t, NodeType::kSwitch, 4, g, ""));
  for (std::size_t i = 0; i < 4; ++i) cable(t, s[i], 1, s[(i + 1) % 4], 2);
  t.sm_node = s[0];
  const std::vector<CableEnd> req{{s[0], 1}, {s[2], 1}, {s[1], 1}};
  const auto d = plan_isolation(t, req);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_TRUE(d[0].isolated);   // s0-s1 gone: a path s0-s3-s2-s1 is left
  EXPECT_FALSE(d[1].isolated);  // s2-s3 too would split {s0,s3} from {s1,s2}; the SM is on s0, s2's side is lost
  EXPECT_EQ(d[1].reason, "would cut off switch 0x0000000000000003 from the SM");
  EXPECT_FALSE(d[2].isolated);  // s1-s2 is now s1's only link
  EXPECT_EQ(d[2].reason, "would cut off switch 0x0000000000000002 from the SM");
}

TEST(CableIsolation, WithoutCablesClearsBothEndsAndKeepsTheRest) {
  TwoSwitches f;
  f.t.mutable_node(f.s0).ports[1].lid = 7;
  f.t.mutable_node(f.s0).ports[1].state = PortState::kActive;
  const std::vector<CableEnd> req{{f.s1, 1}, {f.s0, 2}, {f.h0, 1}};
  const auto d = plan_isolation(f.t, req);
  const Topology out = without_cables(f.t, d);
  EXPECT_EQ(f.t.link_count(), 4u);
  EXPECT_EQ(out.link_count(), 3u);
  EXPECT_FALSE(out.node(f.s0).ports[1].connected());
  EXPECT_FALSE(out.node(f.s1).ports[1].connected());
  EXPECT_EQ(out.node(f.s0).ports[1].peer_port, 0);
  EXPECT_EQ(out.node(f.s0).ports[2].peer, f.s1);
  EXPECT_EQ(out.node(f.h0).ports[1].peer, f.s0);
  EXPECT_EQ(out.node(f.s0).ports[1].lid, 7);
  EXPECT_EQ(out.node(f.s0).ports[1].state, PortState::kActive);
  EXPECT_EQ(out.size(), f.t.size());
  EXPECT_EQ(out.sm_node, f.h0);
  EXPECT_EQ(out.switches(), f.t.switches());
  EXPECT_EQ(out.find(0x200), f.s1);
  // Applying the same plan again changes nothing more (the cable is already gone).
  EXPECT_EQ(without_cables(out, d).link_count(), 3u);
}

TEST(CableIsolation, LeafSpineRoutedWithoutTheIsolatedCable) {
  LeafSpineSpec spec;
  spec.leaves = 4;
  spec.spines = 2;
  spec.hosts_per_leaf = 3;
  Topology topo = make_leaf_spine(spec).value();
  const NodeIndex leaf = topo.switches().front();
  ASSERT_EQ(topo.node(leaf).description.rfind("leaf", 0), 0u) << topo.node(leaf).description;
  // Leaf ports 1..3 are hosts, 4 goes to spine 0, 5 to spine 1 (fabric_gen.h).
  const PortNum up = 4;
  const NodeIndex spine = topo.node(leaf).ports[up].peer;
  ASSERT_TRUE(topo.node(spine).is_switch());
  const PortNum spine_port = topo.node(leaf).ports[up].peer_port;
  // The leaf's other uplink is then its only one: a second request for it is refused.
  const std::vector<CableEnd> req{{leaf, up}, {leaf, 5}};
  const auto d = plan_isolation(topo, req);
  ASSERT_TRUE(d[0].isolated) << d[0].reason;
  ASSERT_FALSE(d[1].isolated);

  const Topology cut = without_cables(topo, d);
  EXPECT_EQ(cut.link_count(), topo.link_count() - 1);
  const LidMap lids = assign_lids(cut, {}, {}).value();
  auto routed = route_with_chain({"ftree", "updn", "minhop"}, {}, cut, lids);
  ASSERT_TRUE(routed.ok()) << routed.error().message;
  const RoutingTables& tables = routed->tables;

  // Walk on the original cabling: a table that still used the isolated cable would be followed across it.
  const SwitchGraph graph = SwitchGraph::build(topo);
  const SwitchLfts lfts(graph, tables);
  const auto targets = lid_targets(topo, graph, lids);
  const SwitchIndex cut_a = graph.index_of(leaf), cut_b = graph.index_of(spine);
  std::size_t pairs = 0;
  for (NodeIndex src : topo.cas()) {
    const LidTarget from = port_target(topo, graph, src, 1);
    ASSERT_NE(from.sw, kNoSwitch);
    for (NodeIndex dst : topo.cas()) {
      if (dst == src) continue;
      const Lid lid = lids.base_lid(dst, 1);
      ASSERT_NE(lid, 0);
      const auto end = walk_lft(
          graph, from.sw, targets[lid], [&](SwitchIndex s) { return lfts.out_port(s, lid); },
          [&](SwitchIndex s, PortNum p) {
            EXPECT_FALSE(s == cut_a && p == up) << "LID " << lid << " leaves the leaf by the isolated port";
            EXPECT_FALSE(s == cut_b && p == spine_port) << "LID " << lid << " leaves the spine by the isolated port";
          });
      EXPECT_TRUE(end.delivered()) << "CA " << src << " -> LID " << lid;
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 12u * 11u);
}

}  // namespace
}  // namespace smd::cable_isolation_test
