// minhop: hand-computed LFTs on tiny fabrics, and on random graphs every route is checked against
// distances from a BFS done here (not the HopTable).
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "tests/unit/routing/hand_node.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/fabric_gen/fabric_gen.h"

namespace smd::minhop_test {
namespace {

// GUIDs counted from 0x5000 in call order.
Node make_node(NodeType type, unsigned ports) {
  static Guid next = 0x5000;
  return test::make_node(type, ports, ++next);
}

/// Give every CA port that is cabled 2^lmc LIDs (in node order), then every switch one LID.
LidMap number_lids(const Topology& t, unsigned lmc) {
  LidMap lids;
  unsigned next = 1u << lmc;
  for (NodeIndex n : t.cas()) {
    for (PortNum p = 1; p <= t.node(n).num_ports; ++p) {
      EXPECT_TRUE(lids.assign(n, p, static_cast<Lid>(next), static_cast<std::uint8_t>(lmc)).ok());
      next += 1u << lmc;
    }
  }
  for (NodeIndex n : t.switches()) EXPECT_TRUE(lids.assign(n, 0, static_cast<Lid>(next++), 0).ok());
  return lids;
}

/// 2 leaves x 2 spines x 2 hosts per leaf. Leaf ports 1,2 = hosts, 3 = spine0, 4 = spine1;
/// spine port 1 = leaf0, 2 = leaf1. Hosts h0,h1 on leaf0, h2,h3 on leaf1.
struct SmallClos {
  Topology t;
  NodeIndex h[4], leaf[2], spine[2];
  SmallClos() {
    for (auto& x : h) x = t.add_node(make_node(NodeType::kCa, 1)).value();
    for (auto& x : leaf) x = t.add_node(make_node(NodeType::kSwitch, 4)).value();
    for (auto& x : spine) x = t.add_node(make_node(NodeType::kSwitch, 2)).value();
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(t.connect(leaf[i / 2], 1 + i % 2, h[i], 1).ok());
    for (int l = 0; l < 2; ++l) {
      for (int s = 0; s < 2; ++s) EXPECT_TRUE(t.connect(leaf[l], 3 + s, spine[s], 1 + l).ok());
    }
  }
};

TEST(MinHop, SmallClosTablesMatchHandComputation) {
  SmallClos c;
  const LidMap lids = number_lids(c.t, 0);  // h0..h3 = 1..4, leaf0 = 5, leaf1 = 6, spine0 = 7, spine1 = 8
  auto r = minhop_factory().create({})->compute(c.t, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->engine, "minhop");
  EXPECT_FALSE(r->deadlock_free);
  ASSERT_EQ(r->lft.size(), c.t.size());
  // leaf0: own hosts direct; h2 -> least loaded of {3,4} (both 0) = 3; h3 -> 4; own LID -> 0;
  // leaf1 -> {3,4} both at 1 -> 3; spine0 only via 3; spine1 only via 4.
  const std::vector<PortNum> leaf0 = {kNoPort, 1, 2, 3, 4, 0, 3, 3, 4};
  EXPECT_EQ(r->lft[c.leaf[0]].entries(), leaf0);
  const std::vector<PortNum> leaf1 = {kNoPort, 3, 4, 1, 2, 3, 0, 3, 4};
  EXPECT_EQ(r->lft[c.leaf[1]].entries(), leaf1);
  // spine0: leaf0 side is port 1, leaf1 side port 2; spine1 is two hops away via either leaf: 1 then 2?
  // counts before LID 8: port1 = 3 (h0,h1,leaf0), port2 = 3 (h2,h3,leaf1) -> tie -> 1.
  const std::vector<PortNum> spine0 = {kNoPort, 1, 1, 2, 2, 1, 2, 0, 1};
  EXPECT_EQ(r->lft[c.spine[0]].entries(), spine0);
  for (NodeIndex hca : c.h) EXPECT_TRUE(r->lft[hca].empty());
}

TEST(MinHop, LmcLidsOfOnePortSpreadOverEqualCostPorts) {
  SmallClos c;
  const LidMap lids = number_lids(c.t, 1);  // h2 = LIDs 6,7; h3 = 8,9
  auto r = minhop_factory().create({})->compute(c.t, lids);
  ASSERT_TRUE(r.ok());
  const Lft& l0 = r->lft[c.leaf[0]];
  EXPECT_EQ(l0.get(2), 1);
  EXPECT_EQ(l0.get(3), 1);
  EXPECT_EQ(l0.get(6), 3);
  EXPECT_EQ(l0.get(7), 4);
  EXPECT_EQ(l0.get(8), 3);
  EXPECT_EQ(l0.get(9), 4);
  EXPECT_EQ(l0.top(), lids.max_lid());
}

TEST(MinHop, UnreachableLidsStayNoPort) {
  Topology t;
  const NodeIndex a = t.add_node(make_node(NodeType::kSwitch, 2)).value();
  const NodeIndex b = t.add_node(make_node(NodeType::kSwitch, 2)).value();
  const NodeIndex ha = t.add_node(make_node(NodeType::kCa, 1)).value();
  const NodeIndex hb = t.add_node(make_node(NodeType::kCa, 1)).value();
  const NodeIndex loose = t.add_node(make_node(NodeType::kCa, 1)).value();
  ASSERT_TRUE(t.connect(a, 1, ha, 1).ok());
  ASSERT_TRUE(t.connect(b, 1, hb, 1).ok());
  LidMap lids = number_lids(t, 0);  // ha 1, hb 2, loose 3, a 4, b 5
  auto r = minhop_factory().create({})->compute(t, lids);
  ASSERT_TRUE(r.ok());
  const std::vector<PortNum> la = {kNoPort, 1, kNoPort, kNoPort, 0, kNoPort};
  EXPECT_EQ(r->lft[a].entries(), la);
  (void)loose;
}

TEST(MinHop, EmptyLidMapIsInvalidInput) {
  SmallClos c;
  auto r = minhop_factory().create({})->compute(c.t, LidMap{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
}

/// Distances between switches computed directly on the Topology.
std::vector<std::vector<int>> all_distances(const Topology& t) {
  std::vector<std::vector<int>> d(t.size());
  for (NodeIndex s : t.switches()) {
    d[s].assign(t.size(), -1);
    std::deque<NodeIndex> q{s};
    d[s][s] = 0;
    while (!q.empty()) {
      const NodeIndex u = q.front();
      q.pop_front();
      for (const Port& p : t.node(u).ports) {
        if (p.connected() && t.node(p.peer).is_switch() && d[s][p.peer] < 0) {
          d[s][p.peer] = d[s][u] + 1;
          q.push_back(p.peer);
        }
      }
    }
  }
  return d;
}

/// Every entry of every switch moves one hop closer to the LID's switch (or delivers it).
void expect_shortest(const Topology& t, const LidMap& lids, const RoutingTables& r) {
  const auto dist = all_distances(t);
  for (NodeIndex s : t.switches()) {
    for (Lid lid = 1; lid <= lids.max_lid(); ++lid) {
      const auto o = lids.owner(lid);
      if (!o) continue;  // LMC alignment leaves LID 1 free
      NodeIndex dst = o->node;
      PortNum deliver = 0;
      if (!t.node(dst).is_switch()) {
        const Port& cp = t.node(dst).ports[o->port];
        if (!cp.connected()) continue;
        dst = cp.peer;
        deliver = cp.peer_port;
      }
      const PortNum p = r.lft[s].get(lid);
      if (dist[s][dst] < 0) {
        EXPECT_EQ(p, kNoPort);
      } else if (s == dst) {
        EXPECT_EQ(p, deliver);
      } else {
        ASSERT_NE(p, kNoPort) << "switch " << s << " lid " << lid;
        ASSERT_GE(p, 1);
        const NodeIndex next = t.node(s).ports[p].peer;
        ASSERT_NE(next, kNoNode);
        ASSERT_TRUE(t.node(next).is_switch());
        EXPECT_EQ(dist[next][dst], dist[s][dst] - 1) << "switch " << s << " lid " << lid;
      }
    }
  }
}

TEST(MinHop, RandomGraphsRouteEveryLidOnAShortestPath) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    auto t = make_random(40, 5, 2, seed);
    ASSERT_TRUE(t.ok()) << t.error().message;
    const LidMap lids = number_lids(*t, 1);
    auto r = minhop_factory().create({})->compute(*t, lids);
    ASSERT_TRUE(r.ok());
    expect_shortest(*t, lids, *r);
  }
}

TEST(MinHop, FatTreeUpPortsCarryBalancedHostLids) {
  // 4-ary 2-tree: leaves have 4 up-ports; the 12 hosts not on a leaf split 3/3/3/3 over them.
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const LidMap lids = number_lids(*t, 0);
  auto r = minhop_factory().create({})->compute(*t, lids);
  ASSERT_TRUE(r.ok());
  expect_shortest(*t, lids, *r);
  for (NodeIndex s : t->switches()) {
    const Node& node = t->node(s);
    if (node.description.find("L0") == std::string::npos) continue;
    std::vector<int> count(node.num_ports + 1, 0);
    for (NodeIndex h : t->cas()) {
      const Port& hp = t->node(h).ports[1];
      if (hp.peer == s) continue;
      ++count[r->lft[s].get(lids.base_lid(h, 1))];
    }
    for (PortNum p = 5; p <= 8; ++p) EXPECT_EQ(count[p], 3) << node.description << " port " << int(p);
  }
}

}  // namespace
}  // namespace smd::minhop_test
