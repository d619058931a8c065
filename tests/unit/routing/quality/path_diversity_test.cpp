// Path diversity (issue 4): LMC LIDs of a CA port should take distinct paths wherever enough shortest
// paths exist. Expected figures are derived by hand for a leaf/spine fabric, and for the 3-level k=8
// tree with LMC=2 counted by walking the LFTs here (testing::walk), independently of FlowTracer.
#include "routing/quality/path_diversity.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "routing/engines/ftree/ftree_factory.h"
#include "routing/engines/updn/updn_factory.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::path_diversity_test {
namespace {

using testing::assign_test_lids;

Result<RoutingTables> route(const std::string& engine, const Topology& topo, const LidMap& lids, bool adaptive) {
  RoutingOptions opts;
  opts.adaptive = adaptive;
  return engine == "ftree" ? ftree_factory().create(opts)->compute(topo, lids)
                           : updn_factory().create(opts)->compute(topo, lids);
}

class PathDiversity : public ::testing::TestWithParam<std::string> {};

TEST_P(PathDiversity, LeafSpineLmc1ByHand) {
  // 4 leaves x 4 hosts, 2 spines, LMC 1. 16 * 15 = 240 ordered pairs: 4 * 4 * 3 = 48 on one leaf (one
  // path), 192 between leaves with 2 shortest paths (one per spine), which the 2 LIDs should both use.
  // Mean = (48 * 1 + 192 * 2) / 240 = 1.8.
  // AR groups over (switch, CA LID): 6 switches x 32 LIDs = 192 entries; size 1: 4 leaves x 8 local LIDs
  // + 2 spines x 32 = 96; size 2: 4 leaves x 24 remote LIDs = 96.
  auto topo = make_leaf_spine(LeafSpineSpec{4, 2, 4, 1});
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo, 1);
  auto r = route(GetParam(), *topo, lids, true);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto d = compute_path_diversity(*topo, lids, *r);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->lids_per_port, 2u);
  EXPECT_EQ(d->pairs, 240u);
  EXPECT_EQ(d->unreachable_pairs, 0u);
  EXPECT_EQ(d->min_distinct, 1u);
  EXPECT_DOUBLE_EQ(d->mean_distinct, 1.8);
  EXPECT_EQ(d->pairs_with_enough_paths, 192u);
  EXPECT_EQ(d->pairs_full, 192u);
  EXPECT_DOUBLE_EQ(d->full_share, 1.0);
  EXPECT_TRUE(d->short_pairs.empty());
  EXPECT_EQ(d->ar_group_sizes, (std::vector<std::uint64_t>{0, 96, 96}));
}

TEST_P(PathDiversity, NoAdaptivePlanNoHistogramAndLmc0IsOnePath) {
  auto topo = make_leaf_spine(LeafSpineSpec{4, 2, 4, 1});
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo, 0);
  auto r = route(GetParam(), *topo, lids, false);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto d = compute_path_diversity(*topo, lids, *r);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->ar_group_sizes.empty());
  EXPECT_EQ(d->pairs, 240u);
  EXPECT_EQ(d->min_distinct, 1u);
  EXPECT_DOUBLE_EQ(d->mean_distinct, 1.0);
  EXPECT_EQ(d->pairs_with_enough_paths, 240u);  // one LID needs one path, every pair has it
  EXPECT_EQ(d->pairs_full, 240u);
}

/// Target of issue 4: 3-level k=8 tree, LMC 2. 512 hosts, 64 leaves of 8 hosts; 261,632 ordered pairs,
/// 512 * 7 = 3,584 of them on one leaf (1 shortest path), the other 258,048 have 8 (same pod) or 64
/// shortest paths, so all four LIDs must take distinct paths.
TEST_P(PathDiversity, KaryTreeLmc2FourDistinctPaths) {
  auto topo = make_kary_ntree(8, 3);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo, 2);
  auto r = route(GetParam(), *topo, lids, true);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(testing::check_all_reach(*topo, lids, *r), "");
  auto v = verify_tables(*topo, lids, *r, true);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_TRUE(v->deadlock_free);

  // Own count: walk each leaf -> each CA's four LIDs; compare the channel sequences and the top switches.
  std::uint64_t remote = 0, four_paths = 0, far = 0, four_tops = 0;
  for (NodeIndex leaf : topo->switches()) {
    unsigned hosts_here = 0;
    for (const Port& p : topo->node(leaf).ports) hosts_here += p.connected() && !topo->node(p.peer).is_switch();
    if (hosts_here == 0) continue;
    for (NodeIndex ca : topo->cas()) {
      const Lid base = lids.base_lid(ca, 1);
      if (topo->node(ca).ports[1].peer == leaf) continue;
      std::set<std::vector<testing::Channel>> paths;
      std::set<NodeIndex> tops;
      std::size_t length = 0;
      for (unsigned x = 0; x < 4; ++x) {
        const auto w = testing::walk(*topo, lids, *r, leaf, static_cast<Lid>(base + x));
        ASSERT_EQ(w.error, "");
        paths.insert(w.hops);
        length = w.hops.size();
        if (length == 4) tops.insert(w.switches[2]);  // leaf, level 1, top, level 1, leaf
      }
      remote += hosts_here;
      four_paths += paths.size() == 4 ? hosts_here : 0;
      if (length == 4) far += hosts_here, four_tops += tops.size() == 4 ? hosts_here : 0;
    }
  }
  EXPECT_EQ(remote, 258048u);
  EXPECT_EQ(four_paths, remote);
  std::printf("[ %s k=8 n=3 LMC=2 ] %llu of %llu inter-pod pairs use 4 distinct top switches\n", GetParam().c_str(),
              static_cast<unsigned long long>(four_tops), static_cast<unsigned long long>(far));

  auto d = compute_path_diversity(*topo, lids, *r);
  ASSERT_TRUE(d.ok()) << d.error().message;
  EXPECT_EQ(d->lids_per_port, 4u);
  EXPECT_EQ(d->pairs, 261632u);
  EXPECT_EQ(d->min_distinct, 1u);
  EXPECT_EQ(d->pairs_with_enough_paths, 258048u);
  EXPECT_EQ(d->pairs_full, four_paths);
  EXPECT_DOUBLE_EQ(d->mean_distinct, (3584.0 + 4.0 * static_cast<double>(four_paths)) / 261632.0);
  // Leaf groups for remote LIDs hold the 8 up-ports; the largest group anywhere is 8.
  ASSERT_FALSE(d->ar_group_sizes.empty());
  EXPECT_EQ(d->ar_group_sizes.size(), 9u);
  std::printf("[ %s k=8 n=3 LMC=2 ] distinct paths min %u mean %.4f, full share %.4f; AR group sizes:",
              GetParam().c_str(), d->min_distinct, d->mean_distinct, d->full_share);
  for (std::size_t s = 1; s < d->ar_group_sizes.size(); ++s) {
    if (d->ar_group_sizes[s]) std::printf(" %zu:%llu", s, static_cast<unsigned long long>(d->ar_group_sizes[s]));
  }
  std::printf("\n");
}

INSTANTIATE_TEST_SUITE_P(Engines, PathDiversity, ::testing::Values("ftree", "updn"));

TEST(ShortestPathCount, KaryTreeLeafToLeafByHand) {
  // k=8, n=3: leaves 2 hops apart share a pod and meet at any of its 8 level-1 switches; 4 hops apart
  // they meet at any of the 8 * 8 top switches reachable through the 8 level-1 switches: 64 paths.
  auto topo = make_kary_ntree(8, 3);
  ASSERT_TRUE(topo.ok());
  const SwitchGraph graph = SwitchGraph::build(*topo);
  const HopTable hops = HopTable::build(graph, 1);
  SwitchIndex leaf = kNoSwitch;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    if (topo->node(graph.node(s)).description == "sw-L0-0") leaf = s;
  }
  ASSERT_NE(leaf, kNoSwitch);
  const auto count = count_shortest_paths(graph, leaf);
  unsigned near = 0, far = 0;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    if (topo->node(graph.node(s)).description.rfind("sw-L0-", 0) != 0) continue;
    const unsigned h = hops.hops(s, leaf);
    const std::uint32_t want = h == 0 ? 1 : h == 2 ? 8 : 64;
    EXPECT_EQ(count[s], want) << topo->node(graph.node(s)).description;
    near += h == 2;
    far += h == 4;
  }
  EXPECT_EQ(near, 7u);
  EXPECT_EQ(far, 56u);
}

}  // namespace
}  // namespace smd::path_diversity_test
