// The IB-vs-RoCE comparison: water-filling on a hand-solved case, the patterns' shapes, ECMP on a
// full-bisection leaf/spine against a balls-into-bins Monte-Carlo written here, and ib-static on an
// ftree-routed full-bisection fat tree against the known optimum (shift max load 1).
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/roce/compare.h"
#include "routing/roce/maxmin.h"
#include "tests/unit/routing/roce/routed_fabric_test.h"

namespace smd::roce::roce_compare_test {
namespace {

TEST(RoceMaxMin, HandSolvedProgressiveFilling) {
  // Channel 0 carries flows 0 and 1; channel 1 carries flows 0, 2, 3. Channel 1 saturates first at 1/3
  // (flows 0, 2, 3 frozen); flow 1 then takes what channel 0 has left: 2/3. Flow 4 is alone: 1.
  const std::vector<std::uint32_t> offsets{0, 2, 3, 4, 5, 6};
  const std::vector<std::uint32_t> channels{0, 1, 0, 1, 1, 2};
  const auto r = maxmin_rates(offsets, channels, 3);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_NEAR(r[0], 1.0 / 3, 1e-12);
  EXPECT_NEAR(r[1], 2.0 / 3, 1e-12);
  EXPECT_NEAR(r[2], 1.0 / 3, 1e-12);
  EXPECT_NEAR(r[3], 1.0 / 3, 1e-12);
  EXPECT_NEAR(r[4], 1.0, 1e-12);
}

TEST(RocePatterns, ShapesOfShiftPermutationBisection) {
  const auto shift = shift_flows(5, 2);
  ASSERT_EQ(shift.size(), 5u);
  EXPECT_EQ(shift[4].src, 4u);
  EXPECT_EQ(shift[4].dst, 1u);
  const auto perm = permutation_flows(50, 3);
  std::set<std::uint32_t> srcs, dsts;
  for (const auto& f : perm) {
    EXPECT_NE(f.src, f.dst);
    srcs.insert(f.src);
    dsts.insert(f.dst);
  }
  EXPECT_EQ(srcs.size(), perm.size());
  EXPECT_EQ(dsts.size(), perm.size());
  const auto bis = bisection_flows(11, 4);
  ASSERT_EQ(bis.size(), 10u);  // one endpoint of 11 sits out
  for (std::size_t i = 0; i < bis.size(); i += 2) {
    EXPECT_EQ(bis[i].src, bis[i + 1].dst);
    EXPECT_EQ(bis[i].dst, bis[i + 1].src);
  }
  PatternOptions o;
  o.max_shifts = 4;
  o.seeds = 3;
  const auto all = make_patterns(10, o);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].instances.size(), 4u);  // 4 of the 9 shifts: k = 1, 3, 5, 7
  EXPECT_EQ(all[0].instances[1].flows[0].dst, 3u);
  EXPECT_EQ(all[3].instances[0].flows.size(), 90u);
}

// The schemes compare_schemes reports on every pattern: a property that holds for all of them loops here.
constexpr const char* kSchemes[] = {"ib-static", "ib-adaptive", "roce-ecmp", "roce-eecmp", "roce-spray"};

// Only the listed pairs, one instance: the hand-solved cases need no random patterns.
CompareOptions pairs_only(std::vector<FlowPair> pairs) {
  CompareOptions o;
  o.patterns.seeds = 1;
  o.patterns.all_to_all = false;
  o.patterns.pairs = std::move(pairs);
  return o;
}

// Every comparison needs a generated fabric with LIDs, an engine's tables and a route plan; route()
// makes them, and compare() runs compare_schemes on them.
class RoceCompare : public RoutedFabricTest {
 protected:
  // Left unchecked here: one test expects it to fail.
  Result<Comparison> compare(const CompareOptions& o) const { return compare_schemes(topo, lids, tables, *plan, o); }
};

// The expectation for ECMP on a full-bisection 2-level Clos (one cable per leaf/spine pair), from a
// Monte-Carlo written here: random permutations, uniform uplink choices, loads counted on uplinks and
// downlinks.
struct BallsIntoBins {
  double mean_max_load = 0;
  double bottleneck_share = 0;
};

BallsIntoBins balls_into_bins(unsigned leaves, unsigned spines, unsigned hosts, int trials, std::uint64_t seed) {
  const unsigned n = leaves * hosts;
  std::mt19937_64 rng(seed);
  double max_sum = 0, share_sum = 0;
  std::size_t flows = 0;
  for (int t = 0; t < trials; ++t) {
    std::vector<unsigned> perm(n);
    for (unsigned i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<int> up(leaves * spines, 0), down(leaves * spines, 0);
    std::vector<int> choice(n, -1);
    for (unsigned i = 0; i < n; ++i) {
      const unsigned sl = i / hosts, dl = perm[i] / hosts;
      if (perm[i] == i || sl == dl) continue;
      choice[i] = static_cast<int>(rng() % spines);
      ++up[sl * spines + choice[i]];
      ++down[dl * spines + choice[i]];
    }
    int worst = 1;  // host cables carry one flow each
    for (unsigned c = 0; c < up.size(); ++c) worst = std::max({worst, up[c], down[c]});
    max_sum += worst;
    for (unsigned i = 0; i < n; ++i) {
      if (perm[i] == i) continue;
      ++flows;
      if (choice[i] < 0) {
        share_sum += 1.0;
        continue;
      }
      const unsigned sl = i / hosts, dl = perm[i] / hosts;
      share_sum += 1.0 / std::max(up[sl * spines + choice[i]], down[dl * spines + choice[i]]);
    }
  }
  return BallsIntoBins{max_sum / trials, share_sum / static_cast<double>(flows)};
}

// A full-bisection 2-level Clos: 16 leaves x 8 hosts, 8 spines, one cable per leaf/spine pair. RoCE ECMP
// on a random permutation is balls into bins: the leaf hashes each leaving flow onto one of 8 uplinks
// (uniform), the spine has a single way down.
TEST_F(RoceCompare, EcmpOnLeafSpineMatchesBallsIntoBins) {
  constexpr unsigned kLeaves = 16, kSpines = 8, kHosts = 8;
  ASSERT_NO_FATAL_FAILURE(route(make_leaf_spine(LeafSpineSpec{kLeaves, kSpines, kHosts, 1}), "minhop"));
  CompareOptions o;
  o.patterns.seeds = 40;
  o.patterns.all_to_all = false;
  o.patterns.max_shifts = 8;
  const auto cmp = compare(o);
  ASSERT_TRUE(cmp.ok()) << cmp.error().message;
  const auto& ecmp = figures(*cmp, "permutation", "roce-ecmp");

  const BallsIntoBins expected = balls_into_bins(kLeaves, kSpines, kHosts, 4000, 2024);
  RecordProperty("expected_mean_max_load", std::to_string(expected.mean_max_load));
  RecordProperty("ecmp_mean_max_load", std::to_string(ecmp.mean_max_link_load));
  RecordProperty("expected_bottleneck_share", std::to_string(expected.bottleneck_share));
  RecordProperty("ecmp_bottleneck_share", std::to_string(ecmp.mean_bottleneck_share));
  // 40 seeds: the mean of the max (per-seed spread about 0.6) has a standard error near 0.1; the mean
  // share over 40 x 128 flows about 0.005. Tolerances are three to four of those.
  EXPECT_NEAR(ecmp.mean_max_link_load, expected.mean_max_load, 0.35) << "expected " << expected.mean_max_load;
  EXPECT_NEAR(ecmp.mean_bottleneck_share, expected.bottleneck_share, 0.02) << "expected " << expected.bottleneck_share;
  // Sanity of the model itself: hashing is far from the optimum of 1, and adaptive beats it.
  EXPECT_GT(expected.mean_max_load, 3.0);
  EXPECT_LT(expected.bottleneck_share, 0.75);
  EXPECT_GT(figures(*cmp, "permutation", "ib-adaptive").mean_bottleneck_share, ecmp.mean_bottleneck_share);
}

// ftree on a full-bisection k-ary n-tree routes every shift without two flows on one cable.
TEST_F(RoceCompare, IbStaticOnFtreeFullBisectionShiftsHaveLoadOne) {
  for (unsigned n : {2u, 3u}) {
    ASSERT_NO_FATAL_FAILURE(route(make_kary_ntree(4, n), "ftree")) << "n=" << n;
    CompareOptions o;
    o.patterns.max_shifts = 0;  // all N-1 shifts
    o.patterns.seeds = 2;
    o.patterns.all_to_all = false;
    const auto cmp = compare(o);
    ASSERT_TRUE(cmp.ok()) << cmp.error().message;
    const auto& s = figures(*cmp, "shift", "ib-static");
    EXPECT_EQ(s.max_link_load, 1.0) << "n=" << n;
    EXPECT_EQ(s.collision_share, 0.0);
    EXPECT_DOUBLE_EQ(s.mean_bottleneck_share, 1.0);
    EXPECT_DOUBLE_EQ(s.maxmin_throughput, 1.0);
    EXPECT_EQ(s.unrouted, 0u);
    EXPECT_EQ(s.flows, std::uint64_t{cmp->endpoints} * (cmp->endpoints - 1));
  }
}

// All-to-all on one switch with 4 hosts: each injection and delivery cable carries 3 flows whatever the
// routing, so every scheme gives max load 3 and a max-min rate of 1/3 per flow (12 flows).
TEST_F(RoceCompare, AllToAllOnOneSwitchIsEndpointBound) {
  ASSERT_NO_FATAL_FAILURE(route(make_single_switch(4), "minhop"));
  CompareOptions o;
  o.patterns.seeds = 1;
  const auto cmp = compare(o);
  ASSERT_TRUE(cmp.ok());
  for (const char* scheme : kSchemes) {
    const auto& a = figures(*cmp, "all-to-all", scheme);
    EXPECT_EQ(a.flows, 12u);
    EXPECT_NEAR(a.maxmin_throughput, 1.0 / 3, 1e-9) << scheme;
    EXPECT_NEAR(a.mean_bottleneck_share, 1.0 / 3, 1e-9) << scheme;
    EXPECT_DOUBLE_EQ(a.max_link_load, 3.0) << scheme;
    EXPECT_EQ(a.collision_share, 0.0) << "no switch-to-switch cable to collide on";
  }
}

// All-to-all between two switches joined by one cable, 2 hosts each (12 flows), solved by hand. The 8
// flows that cross the cable load each direction with 4; host cables carry 3 flows each. Max-min: the
// cable saturates first at 1/4 (the 8 crossing flows freeze); a local flow then has 1 - 2/4 left on its
// host cables: 1/2. Mean = (8/4 + 4/2) / 12 = 1/3. Bottleneck shares: 1/4 crossing, 1/3 local: mean
// (8/4 + 4/3) / 12 = 5/18. The crossing flows collide on the cable, the local ones on nothing: 8/12.
// Every scheme has the one path.
TEST_F(RoceCompare, AllToAllAcrossOneCableSolvedByHand) {
  ASSERT_NO_FATAL_FAILURE(route(make_two_switch(1, 2), "minhop"));
  CompareOptions o;
  o.patterns.seeds = 1;
  for (unsigned threads : {1u, 2u}) {
    o.threads = threads;
    const auto cmp = compare(o);
    ASSERT_TRUE(cmp.ok());
    for (const char* scheme : kSchemes) {
      const auto& a = figures(*cmp, "all-to-all", scheme);
      EXPECT_EQ(a.flows, 12u) << scheme;
      EXPECT_DOUBLE_EQ(a.max_link_load, 4.0) << scheme;
      EXPECT_DOUBLE_EQ(a.max_switch_link_load, 4.0) << scheme;
      EXPECT_NEAR(a.maxmin_throughput, 1.0 / 3, 1e-12) << scheme;
      EXPECT_NEAR(a.mean_bottleneck_share, 5.0 / 18, 1e-12) << scheme;
      EXPECT_NEAR(a.collision_share, 8.0 / 12, 1e-12) << scheme;
    }
  }
}

// One flow split into 4 QPs between two switches joined by 2 cables: the QPs share the flow's load, so
// no cable carries more than the whole flow, and the flow alone gets line rate.
TEST_F(RoceCompare, PairListAndQpsSplitTheLoad) {
  ASSERT_NO_FATAL_FAILURE(route(make_two_switch(2, 2), "minhop"));
  CompareOptions o = pairs_only({FlowPair{0, 3}});
  o.qps = 4;
  const auto cmp = compare(o);
  ASSERT_TRUE(cmp.ok());
  for (const char* scheme : kSchemes) {
    const auto& p = figures(*cmp, "pairs", scheme);
    EXPECT_EQ(p.flows, 1u);
    EXPECT_NEAR(p.maxmin_throughput, 1.0, 1e-9) << scheme;
    EXPECT_NEAR(p.mean_bottleneck_share, 1.0, 1e-9) << scheme;
    EXPECT_LE(p.max_switch_link_load, 1.0 + 1e-12) << scheme;
    EXPECT_GT(p.max_switch_link_load, 0.0) << scheme;
  }
  // AR places the 4 QPs one by one on the less-loaded cable: 2 on each.
  EXPECT_NEAR(figures(*cmp, "pairs", "ib-adaptive").max_switch_link_load, 0.5, 1e-12);
  CompareOptions bad = o;
  bad.patterns.pairs = {FlowPair{0, 9}};
  const auto failed = compare(bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(failed.error().message.find("out of range"), std::string::npos);
}

// With an AdaptivePlan in the tables, ib-adaptive chooses among its groups (not the min-hop sets): a
// plan that offers sw-0 only cable 2 toward sw-1's hosts forces both crossing flows onto it (load 2); a
// plan offering cables 1 and 2 lets the second flow take the idle one (load 1).
TEST_F(RoceCompare, AdaptiveUsesTheTablesArGroups) {
  ASSERT_NO_FATAL_FAILURE(route(make_two_switch(2, 2), "minhop"));
  const NodeIndex sw0 = topo.switches()[0];
  auto make_plan = [&](std::vector<PortNum> group) {
    auto ar = std::make_shared<AdaptivePlan>();
    ar->groups.push_back(std::move(group));
    ar->group_of.resize(topo.size());
    ar->group_of[sw0].assign(lids.max_lid() + 1u, kNoArGroup);
    for (NodeIndex ca : topo.cas()) {
      if (topo.node(ca).ports[1].peer != sw0) ar->group_of[sw0][lids.base_lid(ca, 1)] = 0;
    }
    return ar;
  };
  const CompareOptions o = pairs_only({FlowPair{0, 2}, FlowPair{1, 3}});
  tables.adaptive = make_plan({2});
  const auto forced = compare(o);
  ASSERT_TRUE(forced.ok());
  EXPECT_TRUE(forced->notes.empty());
  EXPECT_DOUBLE_EQ(figures(*forced, "pairs", "ib-adaptive").max_switch_link_load, 2.0);
  EXPECT_DOUBLE_EQ(figures(*forced, "pairs", "ib-adaptive").collision_share, 1.0);
  tables.adaptive = make_plan({1, 2});
  const auto spread = compare(o);
  ASSERT_TRUE(spread.ok());
  EXPECT_DOUBLE_EQ(figures(*spread, "pairs", "ib-adaptive").max_switch_link_load, 1.0);
  EXPECT_DOUBLE_EQ(figures(*spread, "pairs", "ib-adaptive").collision_share, 0.0);
}

}  // namespace
}  // namespace smd::roce::roce_compare_test
