// minhop with OpenSM's balancing inputs (hop_weights_file, port_search_ordering_file, port_prof_ignore_file,
// port_profile_switch_nodes): LFTs worked by hand on a 2-leaf, 2-spine tree, and on random graphs with random
// weights every route checked against least-weight distances computed here (Floyd-Warshall on the Topology,
// not the engine's Dijkstra).
#include <gtest/gtest.h>

#include <random>

#include "routing/engines/minhop/minhop.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/routing/hand_node.h"

namespace smd::minhop_balancing_test {
namespace {

/// 2 leaves x 2 spines x 2 hosts per leaf, GUIDs fixed: hosts 0x100..0x103, leaves 0x200, 0x201, spines
/// 0x300, 0x301. Leaf ports 1,2 = hosts, 3 = spine0, 4 = spine1; spine port 1 = leaf0, 2 = leaf1.
struct Tree {
  Topology t;
  NodeIndex h[4], leaf[2], spine[2];
  LidMap lids;
  Tree(bool switches_first) {
    for (int i = 0; i < 4; ++i) h[i] = t.add_node(test::make_node(NodeType::kCa, 1, 0x100 + i)).value();
    for (int i = 0; i < 2; ++i) leaf[i] = t.add_node(test::make_node(NodeType::kSwitch, 4, 0x200 + i)).value();
    for (int i = 0; i < 2; ++i) spine[i] = t.add_node(test::make_node(NodeType::kSwitch, 2, 0x300 + i)).value();
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(t.connect(leaf[i / 2], 1 + i % 2, h[i], 1).ok());
    for (int l = 0; l < 2; ++l) {
      for (int s = 0; s < 2; ++s) EXPECT_TRUE(t.connect(leaf[l], 3 + s, spine[s], 1 + l).ok());
    }
    // Hosts 1..4 then switches 5..8, or switches 1..4 (leaf0, leaf1, spine0, spine1) then hosts 5..8.
    Lid next = 1;
    const auto hosts = [&] {
      for (NodeIndex n : h) EXPECT_TRUE(lids.assign(n, 1, next++, 0).ok());
    };
    const auto switches = [&] {
      for (NodeIndex n : {leaf[0], leaf[1], spine[0], spine[1]}) EXPECT_TRUE(lids.assign(n, 0, next++, 0).ok());
    };
    if (switches_first) {
      switches();
      hosts();
    } else {
      hosts();
      switches();
    }
  }
  RoutingTables route(const MinhopOptions& minhop) const {
    RoutingOptions options;
    options.engines.set(minhop);
    auto r = minhop_factory().create(options)->compute(t, lids);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : RoutingTables{};
  }
};

TEST(MinHopBalancing, HopWeightSteersRoutesOffTheHeavyPort) {
  const Tree c(false);  // h0..h3 = 1..4, leaf0 5, leaf1 6, spine0 7, spine1 8
  MinhopOptions minhop;
  minhop.hop_weights = {{0x200, 3, 2}};  // leaf0 -> spine0 costs 2
  const RoutingTables r = c.route(minhop);
  // leaf0: h2, h3 and leaf1 by spine0 cost 2 + 1 = 3, by spine1 1 + 1 = 2: all by port 4. spine0 itself:
  // direct 2, by spine1 and leaf1 3: port 3. Without the weight h2 -> 3, h3 -> 4, leaf1 -> 3.
  EXPECT_EQ(r.lft[c.leaf[0]].entries(), (std::vector<PortNum>{kNoPort, 1, 2, 4, 4, 0, 4, 3, 4}));
  // The weight is on the way out of leaf0 only: leaf1 and spine0 route as plain minhop does.
  EXPECT_EQ(r.lft[c.leaf[1]].entries(), (std::vector<PortNum>{kNoPort, 3, 4, 1, 2, 3, 0, 3, 4}));
  EXPECT_EQ(r.lft[c.spine[0]].entries(), (std::vector<PortNum>{kNoPort, 1, 1, 2, 2, 1, 2, 0, 1}));
  EXPECT_TRUE(r.notes.empty());
  // Weight 2 on the other end too (spine0 -> leaf0): leaf1 reaches h0, h1, leaf0 by spine1 only (3 vs 2);
  // spine0 still delivers to leaf0 directly (2 vs 3 round by leaf1 and spine1).
  minhop.hop_weights.push_back({0x300, 1, 2});
  const RoutingTables both = c.route(minhop);
  EXPECT_EQ(both.lft[c.leaf[1]].entries(), (std::vector<PortNum>{kNoPort, 4, 4, 1, 2, 4, 0, 3, 4}));
  EXPECT_EQ(both.lft[c.spine[0]].entries(), (std::vector<PortNum>{kNoPort, 1, 1, 2, 2, 1, 2, 0, 2}));
}

TEST(MinHopBalancing, SearchOrderBreaksTies) {
  const Tree c(false);
  MinhopOptions minhop;
  minhop.port_search_ordering = {{0x200, {4}}};  // leaf0 tries 4, then the rest in port order: 1, 2, 3
  const RoutingTables r = c.route(minhop);
  // h2 -> {3,4} both 0 -> 4 first; h3 -> 3 (0 < 1); leaf1 -> both 1 -> 4.
  EXPECT_EQ(r.lft[c.leaf[0]].entries(), (std::vector<PortNum>{kNoPort, 1, 2, 4, 3, 0, 4, 3, 4}));
  EXPECT_EQ(r.lft[c.leaf[1]].entries(), (std::vector<PortNum>{kNoPort, 3, 4, 1, 2, 3, 0, 3, 4}));
}

TEST(MinHopBalancing, IgnoredPortIsNotCounted) {
  const Tree c(false);
  MinhopOptions minhop;
  minhop.port_prof_ignore = {{0x200, 3}};
  const RoutingTables r = c.route(minhop);
  // Port 3 of leaf0 never gains a count, so every tie goes to it: h2, h3, leaf1 all by 3.
  EXPECT_EQ(r.lft[c.leaf[0]].entries(), (std::vector<PortNum>{kNoPort, 1, 2, 3, 3, 0, 3, 3, 4}));
}

TEST(MinHopBalancing, SwitchLidsCountedOnlyWithPortProfileSwitchNodes) {
  const Tree c(true);  // leaf0 1, leaf1 2, spine0 3, spine1 4, h0..h3 = 5..8
  MinhopOptions minhop;
  // Counted (smd's default): leaf1 -> 3, spine0 -> 3, spine1 -> 4, so h2 -> 4 (3 has 2, 4 has 1), h3 -> 3 (2:2).
  EXPECT_EQ(c.route(minhop).lft[c.leaf[0]].entries(), (std::vector<PortNum>{kNoPort, 0, 3, 3, 4, 1, 2, 4, 3}));
  // Not counted (OpenSM's default): h2 and h3 find both up-ports empty: 3, then 4.
  minhop.port_profile_switch_nodes = false;
  EXPECT_EQ(c.route(minhop).lft[c.leaf[0]].entries(), (std::vector<PortNum>{kNoPort, 0, 3, 3, 4, 1, 2, 3, 4}));
}

TEST(MinHopBalancing, LinesTheFabricLacksAreNotedAndSkipped) {
  const Tree c(false);
  MinhopOptions minhop;
  minhop.hop_weights = {{0x999, 1, 2}, {0x200, 9, 2}};
  minhop.port_search_ordering = {{0x998, {1}}};
  const RoutingTables r = c.route(minhop);
  ASSERT_EQ(r.notes.size(), 2u);
  EXPECT_EQ(r.notes[0],
            "routing.minhop.hop_weights_file: 2 lines name no switch port of the fabric, skipped: "
            "0x0000000000000999/1 0x0000000000000200/9");
  EXPECT_EQ(r.notes[1],
            "routing.minhop.port_search_ordering_file: 1 line names no switch port of the fabric, skipped: "
            "0x0000000000000998");
  EXPECT_EQ(r.lft[c.leaf[0]].entries(), (std::vector<PortNum>{kNoPort, 1, 2, 3, 4, 0, 3, 3, 4}));
}

TEST(MinHopBalancing, PortShiftingStartsWhereTheLoadSays) {
  const Tree c(false);
  MinhopOptions minhop;
  minhop.port_shifting = true;
  const RoutingTables r = c.route(minhop);
  // leaf0: h2 -> {3,4} loads 0,0, start 0/2 = 0 -> 3; h3 -> loads 1,0, start 1/2 = 0 -> 4 (the least);
  // leaf1 -> loads 1,1, start 2/2 = 1 -> 4 where plain minhop takes 3.
  EXPECT_EQ(r.lft[c.leaf[0]].entries(), (std::vector<PortNum>{kNoPort, 1, 2, 3, 4, 0, 4, 3, 4}));
}

/// Up-port loads of every leaf of a 4-ary 2-tree for the hosts not on it: the scatter keeps them 3/3/3/3.
void expect_balanced_leaves(const Topology& t, const LidMap& lids, const RoutingTables& r) {
  for (NodeIndex s : t.switches()) {
    const Node& node = t.node(s);
    if (node.description.find("L0") == std::string::npos) continue;
    std::vector<int> count(node.num_ports + 1, 0);
    for (NodeIndex h : t.cas()) {
      if (t.node(h).ports[1].peer != s) ++count[r.lft[s].get(lids.base_lid(h, 1))];
    }
    for (PortNum p = 5; p <= 8; ++p) EXPECT_EQ(count[p], 3) << node.description << " port " << int(p);
  }
}

TEST(MinHopBalancing, ScatterPortsIsReproducibleAndKeepsTheBalance) {
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok()) << t.error().message;
  LidMap lids;
  Lid next = 1;
  for (NodeIndex h : t->cas()) ASSERT_TRUE(lids.assign(h, 1, next++, 0).ok());
  for (NodeIndex s : t->switches()) ASSERT_TRUE(lids.assign(s, 0, next++, 0).ok());
  const auto route = [&](unsigned seed) {
    MinhopOptions minhop;
    minhop.scatter_ports = seed;
    RoutingOptions options;
    options.engines.set(minhop);
    auto r = minhop_factory().create(options)->compute(*t, lids);
    EXPECT_TRUE(r.ok());
    return r.ok() ? std::move(r).value() : RoutingTables{};
  };
  const RoutingTables plain = route(0), a = route(7), again = route(7), b = route(8);
  const auto same = [&](const RoutingTables& x, const RoutingTables& y) {
    for (NodeIndex s : t->switches()) {
      if (x.lft[s].entries() != y.lft[s].entries()) return false;
    }
    return true;
  };
  EXPECT_TRUE(same(a, again));  // the seed fixes the tables
  EXPECT_FALSE(same(a, plain));
  EXPECT_FALSE(same(a, b));
  for (const RoutingTables* r : {&plain, &a, &b}) expect_balanced_leaves(*t, lids, *r);
}

/// Least total weight between switches by Floyd-Warshall over the Topology's cables, [node][node].
std::vector<std::vector<std::uint64_t>> weighted_distances(const Topology& t,
                                                           const std::vector<std::vector<unsigned>>& weight) {
  constexpr std::uint64_t kInf = ~std::uint64_t{0} / 4;
  std::vector<std::vector<std::uint64_t>> d(t.size(), std::vector<std::uint64_t>(t.size(), kInf));
  const auto sw = t.switches();
  for (NodeIndex s : sw) {
    d[s][s] = 0;
    const Node& node = t.node(s);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (port.connected() && t.node(port.peer).is_switch() && port.peer != s) {
        d[s][port.peer] = std::min<std::uint64_t>(d[s][port.peer], weight[s][p]);
      }
    }
  }
  for (NodeIndex k : sw) {
    for (NodeIndex i : sw) {
      for (NodeIndex j : sw) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
    }
  }
  return d;
}

TEST(MinHopBalancing, RandomWeightsRouteEveryLidOnALeastWeightPath) {
  for (std::uint64_t seed : {4u, 5u, 6u}) {
    auto t = make_random(30, 5, 2, seed);
    ASSERT_TRUE(t.ok()) << t.error().message;
    std::mt19937_64 rng(seed);
    std::vector<std::vector<unsigned>> weight(t->size());
    MinhopOptions minhop;
    LidMap lids;
    Lid next = 1;
    for (NodeIndex s : t->switches()) {
      const Node& node = t->node(s);
      weight[s].assign(node.num_ports + 1u, 1);
      for (PortNum p = 1; p <= node.num_ports; ++p) {
        weight[s][p] = 1 + static_cast<unsigned>(rng() % 4);
        if (weight[s][p] != 1) minhop.hop_weights.push_back({node.guid, p, static_cast<std::uint8_t>(weight[s][p])});
      }
      ASSERT_TRUE(lids.assign(s, 0, next++, 0).ok());
    }
    for (NodeIndex h : t->cas()) ASSERT_TRUE(lids.assign(h, 1, next++, 0).ok());
    RoutingOptions options;
    options.engines.set(minhop);
    auto r = minhop_factory().create(options)->compute(*t, lids);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const auto d = weighted_distances(*t, weight);
    std::size_t checked = 0;
    for (NodeIndex s : t->switches()) {
      for (Lid lid = 1; lid < next; ++lid) {
        const LidOwner o = *lids.owner(lid);
        const NodeIndex dst = t->node(o.node).is_switch() ? o.node : t->node(o.node).ports[1].peer;
        if (dst == s) continue;
        const PortNum p = r->lft[s].get(lid);
        ASSERT_NE(p, kNoPort) << "seed " << seed << " switch " << s << " lid " << lid;
        const NodeIndex next_hop = t->node(s).ports[p].peer;
        ASSERT_TRUE(t->node(next_hop).is_switch());
        EXPECT_EQ(weight[s][p] + d[next_hop][dst], d[s][dst]) << "seed " << seed << " switch " << s << " lid " << lid;
        ++checked;
      }
    }
    EXPECT_GT(checked, 1000u);
  }
}

}  // namespace
}  // namespace smd::minhop_balancing_test
