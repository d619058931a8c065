// ftree engine: recognition (accept fat trees, decline other graphs) and the routing promises checked by
// tracing the LFTs: full reachability, acyclic channel dependencies, and max link load 1 over every shift
// permutation of ca_order on full-bisection trees (Zahavi et al. 2010).
#include "routing/engines/ftree/ftree.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <optional>

#include "routing/engines/ftree/ftree_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/routing/engine_soundness.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::ftree_test {
namespace {

using testing::assign_test_lids;

Result<RoutingTables> run(const Topology& topo, const LidMap& lids, RoutingOptions opts = {}) {
  return ftree_factory().create(opts)->compute(topo, lids);
}

void expect_sound(const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  testing::expect_sound_deadlock_free(topo, lids, t, "ftree");
  EXPECT_EQ(t.ca_order.size(), topo.cas().size());
}

/// Route, check soundness, and return the max link load over all shifts of ca_order.
unsigned shift_load(const Topology& topo, unsigned lmc = 0) {
  const LidMap lids = assign_test_lids(topo, lmc);
  auto r = run(topo, lids);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return 0;
  expect_sound(topo, lids, *r);
  return testing::max_shift_load(topo, lids, *r, r->ca_order);
}

TEST(FatTree, KaryNTreesAreShiftCongestionFree) {
  for (unsigned n : {2u, 3u}) {
    for (unsigned k = 2; k <= 8; ++k) {
      SCOPED_TRACE("k=" + std::to_string(k) + " n=" + std::to_string(n));
      auto topo = make_kary_ntree(k, n);
      ASSERT_TRUE(topo.ok());
      EXPECT_EQ(shift_load(*topo), 1u);
    }
  }
}

TEST(FatTree, LeafSpineWithParallelLinksIsShiftCongestionFree) {
  // Full bisection: hosts per leaf = spines x parallel links.
  for (const auto& spec : {LeafSpineSpec{6, 3, 6, 2}, LeafSpineSpec{4, 2, 8, 4}, LeafSpineSpec{8, 4, 4, 1}}) {
    auto topo = make_leaf_spine(spec);
    ASSERT_TRUE(topo.ok());
    EXPECT_EQ(shift_load(*topo), 1u);
  }
}

TEST(FatTree, ThreeLevelClosIsShiftCongestionFree) {
  FatTree3Spec spec{4, 4, 4, 4, 4, 4, 0.0, 0};
  auto topo = make_fat_tree3(spec);
  ASSERT_TRUE(topo.ok());
  EXPECT_EQ(shift_load(*topo), 1u);
}

TEST(FatTree, PartlyPopulatedLeavesRouteSoundly) {
  FatTree3Spec spec{3, 3, 3, 2, 3, 3, 0.4, 1};
  auto topo = make_fat_tree3(spec);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto r = run(*topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_sound(*topo, lids, *r);
}

TEST(FatTree, LmcLidsUseDifferentUpPorts) {
  auto topo = make_kary_ntree(4, 2);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo, 2);
  auto r = run(*topo, lids);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(testing::check_all_reach(*topo, lids, *r), "");
  EXPECT_TRUE(testing::cdg_acyclic(*topo, lids, *r));
  const NodeIndex host0 = topo->cas()[0];
  const Lid base = lids.base_lid(host0, 1);
  const NodeIndex far_leaf = topo->node(topo->cas().back()).ports[1].peer;
  std::set<PortNum> ports;
  for (Lid l = base; l < base + 4; ++l) ports.insert(r->lft[far_leaf].get(l));
  EXPECT_EQ(ports.size(), 4u);
  // Base LIDs keep the congestion-free pattern.
  EXPECT_EQ(testing::max_shift_load(*topo, lids, *r, r->ca_order), 1u);
}

/// For every leaf switch with CAs: from every switch, the route to the leaf's own LID takes the same
/// switches as the route to the base LID of its lowest-numbered CA port, and ends at port 0.
void expect_leaf_lids_follow_first_ca(const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  std::size_t leaves = 0;
  for (NodeIndex leaf : topo.switches()) {
    const Node& node = topo.node(leaf);
    std::optional<Lid> first_ca;
    for (PortNum p = 1; p <= node.num_ports && !first_ca; ++p) {
      const Port& port = node.ports[p];
      if (port.connected() && !topo.node(port.peer).is_switch()) first_ca = lids.base_lid(port.peer, port.peer_port);
    }
    if (!first_ca) continue;
    ++leaves;
    const Lid own = lids.base_lid(leaf, 0);
    for (NodeIndex from : topo.switches()) {
      SCOPED_TRACE("leaf " + std::to_string(leaf) + " from " + std::to_string(from));
      const auto to_leaf = testing::walk(topo, lids, t, from, own);
      const auto to_ca = testing::walk(topo, lids, t, from, *first_ca);
      EXPECT_EQ(to_leaf.error, "");
      EXPECT_EQ(to_leaf.switches, to_ca.switches);
      EXPECT_EQ(t.lft[leaf].get(own), 0);
    }
  }
  EXPECT_GT(leaves, 0u);
}

TEST(FatTree, LeafSwitchLidsFollowTheirFirstCaPortsRoute) {
  // LMC 1: the copied route is the base LID's; a partly populated tree has leaves whose port 1 is empty.
  auto kary = make_kary_ntree(4, 3);
  ASSERT_TRUE(kary.ok());
  const LidMap kary_lids = assign_test_lids(*kary, 1);
  auto r = run(*kary, kary_lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_sound(*kary, kary_lids, *r);
  expect_leaf_lids_follow_first_ca(*kary, kary_lids, *r);

  auto partial = make_fat_tree3(FatTree3Spec{3, 3, 3, 2, 3, 3, 0.4, 1});
  ASSERT_TRUE(partial.ok());
  const LidMap partial_lids = assign_test_lids(*partial);
  auto p = run(*partial, partial_lids);
  ASSERT_TRUE(p.ok()) << p.error().message;
  expect_leaf_lids_follow_first_ca(*partial, partial_lids, *p);
}

TEST(FatTree, DeclinesTorusAndRandomGraphs) {
  auto torus = make_torus({4, 4}, 2);
  ASSERT_TRUE(torus.ok());
  auto r = run(*torus, assign_test_lids(*torus));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kDeclined);
  EXPECT_NE(r.error().message.find("not a fat tree"), std::string::npos) << r.error().message;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    auto g = make_random(16, 4, 1, seed);
    ASSERT_TRUE(g.ok());
    auto rr = run(*g, assign_test_lids(*g));
    ASSERT_FALSE(rr.ok());
    EXPECT_EQ(rr.error().code, ErrorCode::kDeclined) << rr.error().message;
  }
}

Node make(NodeType type, Guid guid, PortNum ports, const std::string& desc) {
  Node n;
  n.type = type;
  n.guid = guid;
  n.num_ports = ports;
  n.ports.resize(ports + 1);
  n.description = desc;
  return n;
}

/// `t` without the CAs cabled to switch `leaf` (a rack whose hosts are all down), node order kept.
Topology without_hosts_of(const Topology& t, NodeIndex leaf) {
  Topology out;
  std::vector<NodeIndex> map(t.size(), kNoNode);
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (!node.is_switch() && node.ports[1].connected() && node.ports[1].peer == leaf) continue;
    Node copy = node;
    for (Port& p : copy.ports) p.peer = kNoNode, p.peer_port = 0;
    map[n] = *out.add_node(std::move(copy));
  }
  for (NodeIndex n = 0; n < t.size(); ++n) {
    for (const Port& p : t.node(n).ports) {
      if (p.connected() && n < p.peer && map[n] != kNoNode && map[p.peer] != kNoNode) {
        EXPECT_TRUE(out.connect(map[n], p.num, map[p.peer], p.peer_port).ok());
      }
    }
  }
  return out;
}

TEST(FatTree, ALeafWithoutHostsNeedsRootsAndTheDeclineSaysSo) {
  auto tree = make_kary_ntree(4, 3);
  ASSERT_TRUE(tree.ok());
  NodeIndex leaf = kNoNode;
  for (NodeIndex s : tree->switches()) {
    if (tree->node(s).description == "sw-L0-2") leaf = s;
  }
  ASSERT_NE(leaf, kNoNode);
  const Topology topo = without_hosts_of(*tree, leaf);
  ASSERT_EQ(topo.cas().size(), 60u);
  const LidMap lids = assign_test_lids(topo);
  auto r = run(topo, lids);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kDeclined);
  EXPECT_NE(r.error().message.find("name the top switches in routing.ftree.roots"), std::string::npos)
      << r.error().message;
  // As the message says: with the top switches as roots the tree is recognised and routed soundly.
  std::vector<Guid> roots;
  for (NodeIndex s : topo.switches()) {
    if (topo.node(s).description.rfind("sw-L2-", 0) == 0) roots.push_back(topo.node(s).guid);
  }
  RoutingOptions opts;
  opts.engines.set(FtreeOptions(roots));
  auto rooted = run(topo, lids, opts);
  ASSERT_TRUE(rooted.ok()) << rooted.error().message;
  expect_sound(topo, lids, *rooted);
}

TEST(FatTree, DeclinesCasAtSeveralLevels) {
  // Two leaves under one spine, and a host on the spine too.
  Topology topo;
  const NodeIndex spine = *topo.add_node(make(NodeType::kSwitch, 0x100, 3, "spine"));
  const NodeIndex l0 = *topo.add_node(make(NodeType::kSwitch, 0x200, 2, "leaf0"));
  const NodeIndex l1 = *topo.add_node(make(NodeType::kSwitch, 0x300, 2, "leaf1"));
  const NodeIndex h0 = *topo.add_node(make(NodeType::kCa, 0x10, 1, "h0"));
  const NodeIndex h1 = *topo.add_node(make(NodeType::kCa, 0x11, 1, "h1"));
  const NodeIndex h2 = *topo.add_node(make(NodeType::kCa, 0x12, 1, "h2"));
  ASSERT_TRUE(topo.connect(spine, 1, l0, 2).ok());
  ASSERT_TRUE(topo.connect(spine, 2, l1, 2).ok());
  ASSERT_TRUE(topo.connect(h0, 1, l0, 1).ok());
  ASSERT_TRUE(topo.connect(h1, 1, l1, 1).ok());
  ASSERT_TRUE(topo.connect(h2, 1, spine, 3).ok());
  auto r = run(topo, assign_test_lids(topo));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kDeclined);
  EXPECT_NE(r.error().message.find("several levels"), std::string::npos) << r.error().message;
  // With the spine named as root, the hosted spine is caught by the level-0 rule instead.
  RoutingOptions opts;
  opts.engines.set(FtreeOptions({0x100}));
  auto r2 = run(topo, assign_test_lids(topo), opts);
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().code, ErrorCode::kDeclined);
}

TEST(FatTree, ConfiguredRoots) {
  auto topo = make_kary_ntree(3, 3);
  ASSERT_TRUE(topo.ok());
  RoutingOptions opts;
  std::vector<Guid> roots;
  for (NodeIndex s : topo->switches()) {
    if (topo->node(s).description.rfind("sw-L2-", 0) == 0) roots.push_back(topo->node(s).guid);
  }
  ASSERT_EQ(roots.size(), 9u);
  opts.engines.set(FtreeOptions(roots));
  const LidMap lids = assign_test_lids(*topo);
  auto r = run(*topo, lids, opts);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_sound(*topo, lids, *r);
  EXPECT_EQ(testing::max_shift_load(*topo, lids, *r, r->ca_order), 1u);
  opts.engines.set(FtreeOptions({0x1234}));
  auto bad = run(*topo, lids, opts);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidInput);
}

TEST(FatTree, SingleSwitch) {
  auto topo = make_single_switch(5);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto r = run(*topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  expect_sound(*topo, lids, *r);
}

TEST(FatTree, Ebb1728HostThreeLevelTree) {
  FatTree3Spec spec{12, 12, 12, 12, 12, 12, 0.0, 0};
  auto topo = make_fat_tree3(spec);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto r = run(*topo, lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const double e = testing::ebb(*topo, lids, *r, 20);
  const unsigned shift = testing::max_shift_load(*topo, lids, *r, r->ca_order);
  std::printf("ftree k=12 3-level 1728 hosts: eBB %.3f, max shift load %u\n", e, shift);
  EXPECT_EQ(shift, 1u);
  EXPECT_GE(e, 0.45);
}

TEST(FatTree, DISABLED_ComputeTime32kHosts) {
  FatTree3Spec spec{32, 32, 32, 32, 32, 32, 0.0, 0};
  auto topo = make_fat_tree3(spec);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  const auto t0 = std::chrono::steady_clock::now();
  const std::clock_t c0 = std::clock();
  auto r = run(*topo, lids);
  const std::clock_t c1 = std::clock();
  const auto t1 = std::chrono::steady_clock::now();
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::printf("ftree 32768 hosts, %zu switches: %.2f s wall, %.2f s CPU\n", topo->switches().size(),
              std::chrono::duration<double>(t1 - t0).count(), double(c1 - c0) / CLOCKS_PER_SEC);
}

}  // namespace
}  // namespace smd::ftree_test
