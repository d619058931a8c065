// updn engine: every switch reaches every LID, the channel-dependency graph is acyclic, CA routes never
// turn from down to up (checked against a rank the test computes itself), and a fat tree is spread.
#include "routing/engines/updn/updn.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <deque>

#include "routing/chain/registry.h"
#include "routing/engines/updn/updn_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/routing/engine_soundness.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::updn_test {
namespace {

using testing::assign_test_lids;

RoutingTables route(const Topology& topo, const LidMap& lids, RoutingOptions opts = {}) {
  auto r = updn_factory().create(opts)->compute(topo, lids);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? std::move(r).value() : RoutingTables{};
}

/// BFS rank of every switch from `roots` (the test's own), then: does any route to a CA LID go up after
/// having gone down? up = towards smaller (rank, GUID).
std::string down_up_turn(const Topology& topo, const LidMap& lids, const RoutingTables& t,
                         const std::vector<NodeIndex>& roots, bool include_switch_lids) {
  std::vector<unsigned> rank(topo.size(), ~0u);
  std::deque<NodeIndex> q;
  for (NodeIndex r : roots) rank[r] = 0, q.push_back(r);
  while (!q.empty()) {
    const NodeIndex u = q.front();
    q.pop_front();
    for (const Port& p : topo.node(u).ports) {
      if (p.connected() && topo.node(p.peer).is_switch() && rank[p.peer] == ~0u) {
        rank[p.peer] = rank[u] + 1;
        q.push_back(p.peer);
      }
    }
  }
  const auto up = [&](NodeIndex a, NodeIndex b) {
    return rank[b] != rank[a] ? rank[b] < rank[a] : topo.node(b).guid < topo.node(a).guid;
  };
  for (const auto& e : lids.entries()) {
    if (!include_switch_lids && topo.node(e.owner.node).is_switch()) continue;
    for (NodeIndex s : topo.switches()) {
      const auto r = testing::walk(topo, lids, t, s, e.base);
      bool went_down = false;
      for (std::size_t i = 0; i + 1 < r.switches.size(); ++i) {
        const bool is_up = up(r.switches[i], r.switches[i + 1]);
        if (is_up && went_down) return topo.node(s).description + " -> LID " + std::to_string(e.base);
        went_down = went_down || !is_up;
      }
    }
  }
  return "";
}

std::vector<NodeIndex> named(const Topology& topo, const std::string& prefix) {
  std::vector<NodeIndex> out;
  for (NodeIndex s : topo.switches()) {
    if (topo.node(s).description.rfind(prefix, 0) == 0) out.push_back(s);
  }
  return out;
}

void expect_sound(const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  testing::expect_sound_deadlock_free(topo, lids, t, "updn");
}

TEST(UpDown, KaryNTreesReachEverythingWithoutCreditLoops) {
  for (unsigned n : {2u, 3u}) {
    for (unsigned k = 2; k <= (n == 2 ? 8u : 6u); ++k) {
      SCOPED_TRACE("k=" + std::to_string(k) + " n=" + std::to_string(n));
      auto topo = make_kary_ntree(k, n);
      ASSERT_TRUE(topo.ok());
      const LidMap lids = assign_test_lids(*topo);
      const RoutingTables t = route(*topo, lids);
      expect_sound(*topo, lids, t);
      // Roots are the top level, so CA routes are up*/down* w.r.t. BFS from the tops.
      EXPECT_EQ(down_up_turn(*topo, lids, t, named(*topo, "sw-L" + std::to_string(n - 1) + "-"), false), "");
      // The flow-counting balance reproduces d-mod-k: every shift is congestion free.
      EXPECT_EQ(testing::max_shift_load(*topo, lids, t, t.ca_order), 1u);
    }
  }
}

TEST(UpDown, LeafSpineWithParallelLinks) {
  auto topo = make_leaf_spine(LeafSpineSpec{6, 3, 6, 2});
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  const RoutingTables t = route(*topo, lids);
  expect_sound(*topo, lids, t);
  EXPECT_EQ(down_up_turn(*topo, lids, t, named(*topo, "spine-"), false), "");
  EXPECT_EQ(testing::max_shift_load(*topo, lids, t, t.ca_order), 1u);
}

TEST(UpDown, TorusWithHostsEverywhere) {
  // OpenSM's updn finds no root here; a centre root makes every pair reachable with no credit loop.
  for (const auto& dims : std::vector<std::vector<unsigned>>{{5}, {4, 4}, {3, 3, 3}, {6, 4}}) {
    auto topo = make_torus(dims, 2);
    ASSERT_TRUE(topo.ok());
    const LidMap lids = assign_test_lids(*topo);
    const RoutingTables t = route(*topo, lids);
    expect_sound(*topo, lids, t);
  }
}

TEST(UpDown, RandomGraphs) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto topo = make_random(20, 5, seed % 3, seed);
    ASSERT_TRUE(topo.ok());
    const LidMap lids = assign_test_lids(*topo);
    const RoutingTables t = route(*topo, lids);
    expect_sound(*topo, lids, t);
  }
}

TEST(UpDown, ConfiguredRootIsRespected) {
  auto topo = make_torus({4, 4}, 1);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  const NodeIndex root = topo->switches()[5];
  RoutingOptions opts;
  opts.engines.set(UpdnOptions({topo->node(root).guid}));
  const RoutingTables t = route(*topo, lids, opts);
  expect_sound(*topo, lids, t);
  // One root: every route, switch LIDs included, is legal w.r.t. BFS from that root.
  EXPECT_EQ(down_up_turn(*topo, lids, t, {root}, true), "");
}

TEST(UpDown, UnknownRootGuidIsInvalidInput) {
  auto topo = make_kary_ntree(2, 2);
  ASSERT_TRUE(topo.ok());
  RoutingOptions opts;
  opts.engines.set(UpdnOptions({0xdeadbeefULL}));
  auto r = updn_factory().create(opts)->compute(*topo, assign_test_lids(*topo));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(r.error().message.find("0x00000000deadbeef"), std::string::npos) << r.error().message;
  // A CA GUID is not a switch either.
  opts.engines.set(UpdnOptions({topo->node(topo->cas()[0]).guid}));
  auto r2 = updn_factory().create(opts)->compute(*topo, assign_test_lids(*topo));
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().code, ErrorCode::kInvalidInput);
}

TEST(UpDown, PartlyPopulatedThreeLevelTree) {
  FatTree3Spec spec;
  spec.pods = 3;
  spec.leaves_per_pod = 3;
  spec.aggs_per_pod = 3;
  spec.cores_per_agg_group = 2;
  spec.leaf_down_ports = 3;
  spec.hosts_per_leaf = 3;
  spec.partial_leaf_fraction = 0.4;
  spec.partial_hosts = 1;
  auto topo = make_fat_tree3(spec);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  const RoutingTables t = route(*topo, lids);
  expect_sound(*topo, lids, t);
  EXPECT_EQ(down_up_turn(*topo, lids, t, named(*topo, "core-"), false), "");
}

TEST(UpDown, LmcLidsOfOnePortLeaveOverDifferentUpPorts) {
  auto topo = make_kary_ntree(4, 2);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo, 2);
  const RoutingTables t = route(*topo, lids);
  EXPECT_EQ(testing::check_all_reach(*topo, lids, t), "");
  EXPECT_TRUE(testing::cdg_acyclic(*topo, lids, t));
  // A remote leaf sends the 4 LIDs of host 0 out of 4 different up-ports (5..8).
  const NodeIndex host0 = topo->cas()[0];
  const Lid base = lids.base_lid(host0, 1);
  const NodeIndex far_leaf = topo->node(topo->cas().back()).ports[1].peer;
  std::set<PortNum> ports;
  for (Lid l = base; l < base + 4; ++l) ports.insert(t.lft[far_leaf].get(l));
  EXPECT_EQ(ports.size(), 4u);
}

TEST(UpDown, SingleSwitchAndTwoSwitches) {
  auto one = make_single_switch(4);
  ASSERT_TRUE(one.ok());
  const LidMap l1 = assign_test_lids(*one);
  expect_sound(*one, l1, route(*one, l1));
  auto two = make_two_switch(3, 2);
  ASSERT_TRUE(two.ok());
  const LidMap l2 = assign_test_lids(*two);
  expect_sound(*two, l2, route(*two, l2));
}

TEST(UpDown, WitnessesCatchBrokenTables) {
  // The test-side checks must be able to fail: a black hole, a clockwise ring, a funnel.
  auto ring = make_torus({4}, 1);  // switch ports: 1 = host, 2 = "+", 3 = "-"
  ASSERT_TRUE(ring.ok());
  const LidMap lids = assign_test_lids(*ring);
  RoutingTables t = route(*ring, lids);
  RoutingTables hole = t;
  hole.lft[ring->switches()[0]].set(lids.base_lid(ring->cas()[2], 1), kNoPort);
  EXPECT_NE(testing::check_all_reach(*ring, lids, hole), "");
  RoutingTables clockwise = t;
  for (NodeIndex s : ring->switches()) {
    for (const auto& e : lids.entries()) {
      const PortNum local = t.lft[s].get(e.base);
      if (local != 0 && local != 1) clockwise.lft[s].set(e.base, 2);
    }
  }
  EXPECT_EQ(testing::check_all_reach(*ring, lids, clockwise), "");
  EXPECT_FALSE(testing::cdg_acyclic(*ring, lids, clockwise));

  auto ls = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});  // leaf ports: 1-2 hosts, 3 spine-0, 4 spine-1
  ASSERT_TRUE(ls.ok());
  const LidMap ls_lids = assign_test_lids(*ls);
  RoutingTables funnel = route(*ls, ls_lids);
  EXPECT_EQ(testing::max_shift_load(*ls, ls_lids, funnel, funnel.ca_order), 1u);
  // Every leaf sends every CA LID it would send via spine-1 to spine-0 instead.
  for (NodeIndex s : ls->switches()) {
    if (ls->node(s).description.rfind("leaf-", 0) != 0) continue;
    for (const auto& e : ls_lids.entries()) {
      if (!ls->node(e.owner.node).is_switch() && funnel.lft[s].get(e.base) == 4) funnel.lft[s].set(e.base, 3);
    }
  }
  EXPECT_EQ(testing::check_all_reach(*ls, ls_lids, funnel), "");
  EXPECT_GE(testing::max_shift_load(*ls, ls_lids, funnel, funnel.ca_order), 2u);
  EXPECT_LT(testing::ebb(*ls, ls_lids, funnel, 20), testing::ebb(*ls, ls_lids, route(*ls, ls_lids), 20));
}

TEST(UpDown, ChainPicksFtreeOnTreesAndUpdnOnTori) {
  auto torus = make_torus({4, 4}, 1);
  ASSERT_TRUE(torus.ok());
  auto r = route_with_chain({"ftree", "updn", "minhop"}, {}, *torus, assign_test_lids(*torus));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->tables.engine, "updn");
  ASSERT_EQ(r->declined.size(), 1u);
  EXPECT_EQ(r->declined[0].error.code, ErrorCode::kDeclined);
  auto tree = make_kary_ntree(4, 3);
  ASSERT_TRUE(tree.ok());
  auto r2 = route_with_chain({"ftree", "updn", "minhop"}, {}, *tree, assign_test_lids(*tree));
  ASSERT_TRUE(r2.ok()) << r2.error().message;
  EXPECT_EQ(r2->tables.engine, "ftree");
  EXPECT_TRUE(r2->declined.empty());
}

/// Quality on the 1,728-host 3-level tree (12 pods of 12 leaves x 12 aggs, 144 cores).
TEST(UpDown, Ebb1728HostThreeLevelTree) {
  FatTree3Spec spec{12, 12, 12, 12, 12, 12, 0.0, 0};
  auto topo = make_fat_tree3(spec);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  const RoutingTables t = route(*topo, lids);
  const double e = testing::ebb(*topo, lids, t, 20);
  const unsigned shift = testing::max_shift_load(*topo, lids, t, t.ca_order);
  std::printf("updn k=12 3-level 1728 hosts: eBB %.3f, max shift load %u\n", e, shift);
  EXPECT_GE(e, 0.45);
}

/// Compute time on the 32,768-host 3-level tree (32 pods x 32 leaves x 32 aggs, 1,024 cores).
TEST(UpDown, DISABLED_ComputeTime32kHosts) {
  FatTree3Spec spec{32, 32, 32, 32, 32, 32, 0.0, 0};
  auto topo = make_fat_tree3(spec);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  // CPU time as well as wall time: the build host is shared, wall time alone says little.
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  auto r = updn_factory().create({})->compute(*topo, lids);
  const std::clock_t c1 = std::clock();
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_TRUE(r.ok());
  std::printf("updn 32768 hosts, %zu switches: %.2f s wall, %.2f s CPU\n", topo->switches().size(),
              std::chrono::duration<double>(t1 - t0).count(), double(c1 - c0) / CLOCKS_PER_SEC);
}

}  // namespace
}  // namespace smd::updn_test
