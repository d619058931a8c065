// The collectives of the IB-vs-RoCE comparison (routing/roce/collectives.h, collective_eval.h): phase
// counts, ideal times and NCCL bus-bandwidth factors against numbers worked out by hand below; the
// double binary tree's shape; one phase timed from the same max-min rates the evaluator gives those
// flows; and, on a full-bisection 2-level fat tree, ftree's static routes finishing a ring at ideal where
// RoCE's hashing does not.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <vector>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/quality/flow_trace.h"
#include "routing/roce/collective_eval.h"
#include "routing/roce/collectives.h"
#include "routing/roce/compare.h"
#include "routing/roce/maxmin.h"
#include "tests/unit/routing/roce/routed_fabric_test.h"

namespace smd::roce::roce_collectives_test {
namespace {

std::vector<std::uint32_t> identity(std::size_t r) {
  std::vector<std::uint32_t> v(r);
  for (std::uint32_t i = 0; i < r; ++i) v[i] = i;
  return v;
}

Collective build(CollectiveKind kind, std::size_t r, unsigned group = 0) {
  const auto ranks = identity(r);
  auto c = make_collective(CollectiveSpec{kind, group}, ranks);
  EXPECT_TRUE(c.ok()) << c.error().message;
  return c.ok() ? std::move(c).value() : Collective{};
}

TEST(RoceCollectives, ParseListAndErrors) {
  const auto all = parse_collectives("ring,tree,allgather,reducescatter,alltoall,moe:8,pipeline");
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all->size(), 7u);
  EXPECT_EQ((*all)[5].kind, CollectiveKind::kMoeAllToAll);
  EXPECT_EQ((*all)[5].group, 8u);
  EXPECT_EQ(collective_name((*all)[5]), "moe-alltoall:8");
  EXPECT_EQ(collective_name((*all)[1]), "tree-allreduce");
  EXPECT_TRUE(parse_collectives("none")->empty());
  // '' is none too, as collectives.h and docs/roce.md say (it was refused as an empty list).
  ASSERT_TRUE(parse_collectives("").ok());
  EXPECT_TRUE(parse_collectives("")->empty());
  // 'none' in a list is refused for what it is, not as an unknown word the known list then names.
  for (const char* with_none : {"none,ring", "ring,none", "none,none"}) {
    const auto r = parse_collectives(with_none);
    ASSERT_FALSE(r.ok()) << with_none;
    EXPECT_EQ(r.error().message, "--collectives: 'none' (no collective) stands alone, not in a list with others");
  }
  EXPECT_EQ(parse_collectives("rings").error().message,
            "--collectives: unknown collective 'rings' (known: ring, tree, allgather, reducescatter, alltoall, "
            "moe:G, pipeline; or none alone)");
  for (const char* bad : {"ring,rings", "moe", "moe:1", "moe:x", "ring:2", "ring,,tree", "ring,ring",
                          "moe:4,tree,moe:4", "none,ring"}) {
    const auto r = parse_collectives(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_NE(r.error().message.find("--collectives"), std::string::npos) << r.error().message;
  }
}

// Phase counts (repeats counted): ring all-reduce 2(r-1) (reduce-scatter then all-gather), all-gather
// and reduce-scatter r-1, the tree 2 x floor(log2 r) levels (up then down), the rest one phase.
TEST(RoceCollectives, PhaseCounts) {
  for (std::size_t r : {2u, 4u, 5u, 8u, 12u}) {
    SCOPED_TRACE("r=" + std::to_string(r));
    const auto log2r = static_cast<std::uint64_t>(std::floor(std::log2(static_cast<double>(r))));
    EXPECT_EQ(phase_count(build(CollectiveKind::kRingAllReduce, r)), 2 * (r - 1));
    EXPECT_EQ(phase_count(build(CollectiveKind::kAllGather, r)), r - 1);
    EXPECT_EQ(phase_count(build(CollectiveKind::kReduceScatter, r)), r - 1);
    EXPECT_EQ(phase_count(build(CollectiveKind::kTreeAllReduce, r)), 2 * log2r);
    EXPECT_EQ(phase_count(build(CollectiveKind::kAllToAll, r)), 1u);
    EXPECT_EQ(phase_count(build(CollectiveKind::kMoeAllToAll, r, 2)), 1u);
    EXPECT_EQ(phase_count(build(CollectiveKind::kPipeline, r)), 1u);
    EXPECT_EQ(build(CollectiveKind::kAllToAll, r).phases[0].instance.flows.size(), r * (r - 1));
    EXPECT_EQ(build(CollectiveKind::kPipeline, r).phases[0].instance.flows.size(), r - 1);
  }
}

// Ideal times (units of S / line rate) and bus factors, by hand:
//   ring all-reduce: 2(r-1) steps of S/r, one flow per host cable: r=4 6/4, r=8 14/8; factor 2(r-1)/r,
//     so the ideal busBw is exactly line rate, NCCL's claim for a ring on a non-blocking fabric.
//   all-gather r=4: 3 x 1/4; all-to-all r=4: 3 flows of 1/4 out of each host in one phase: 3/4; r=8 7/8.
//   moe:4 over 8 ranks: two groups, 3 flows of 1/4 per host: 3/4, factor 3/4. moe:3 over 8: groups of
//     3, 3, 2; the busiest host sends 2 x 1/3: 2/3, factor 2/3. pipeline: S over one cable: 1, factor 1.
//   tree r=4 (worked out in DoubleBinaryTreeShape): reduce levels with 2 and 1 flows into the busiest
//     rank: 0.5 x 2 + 0.5 x 1 = 1.5, broadcast the same: 3.0. r=8: levels 2, 2, 1: 2.5 each way: 5.0.
TEST(RoceCollectives, IdealTimesAndBusFactorsByHand) {
  struct Case {
    CollectiveKind kind;
    std::size_t r;
    unsigned group;
    double ideal, factor;
  };
  const Case cases[] = {
      {CollectiveKind::kRingAllReduce, 4, 0, 1.5, 1.5}, {CollectiveKind::kRingAllReduce, 8, 0, 1.75, 1.75},
      {CollectiveKind::kAllGather, 4, 0, 0.75, 0.75},   {CollectiveKind::kReduceScatter, 8, 0, 0.875, 0.875},
      {CollectiveKind::kAllToAll, 4, 0, 0.75, 0.75},    {CollectiveKind::kAllToAll, 8, 0, 0.875, 0.875},
      {CollectiveKind::kMoeAllToAll, 8, 4, 0.75, 0.75}, {CollectiveKind::kMoeAllToAll, 8, 3, 2.0 / 3, 2.0 / 3},
      {CollectiveKind::kMoeAllToAll, 4, 8, 0.75, 0.75}, {CollectiveKind::kPipeline, 4, 0, 1.0, 1.0},
      {CollectiveKind::kTreeAllReduce, 4, 0, 3.0, 1.5}, {CollectiveKind::kTreeAllReduce, 8, 0, 5.0, 1.75},
  };
  for (const auto& c : cases) {
    const Collective col = build(c.kind, c.r, c.group);
    SCOPED_TRACE(col.name + " r=" + std::to_string(c.r));
    EXPECT_NEAR(ideal_time(col), c.ideal, 1e-12);
    EXPECT_NEAR(col.bus_factor, c.factor, 1e-12);
    EXPECT_NEAR(collective_result(col).ideal_bus_bandwidth, c.factor / c.ideal, 1e-12);
  }
  EXPECT_EQ(build(CollectiveKind::kMoeAllToAll, 8, 3).phases[0].instance.flows.size(), 14u);  // 6 + 6 + 2
}

// In-order tree over positions 1..8 (0-based below): 8 is the root, 4 under it, then 2 and 6, then the
// odd positions. Tree 2 mirrors ranks (r even), so every rank is a leaf in exactly one of the trees.
TEST(RoceCollectives, DoubleBinaryTreeShape) {
  const std::vector<std::int64_t> want{1, 3, 1, 7, 5, 3, 5, -1};
  EXPECT_EQ(inorder_tree_parents(8), want);
  const std::vector<std::int64_t> four{1, 3, 1, -1};
  EXPECT_EQ(inorder_tree_parents(4), four);
  const Collective tree = build(CollectiveKind::kTreeAllReduce, 4);
  ASSERT_EQ(tree.phases.size(), 4u);
  // Deepest level first: tree 1 sends 0->1, 2->1; tree 2 (rank 3-p at position p) sends 3->2, 1->2.
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> first;
  for (const auto& f : tree.phases[0].instance.flows) ++first[{f.src, f.dst}];
  const std::map<std::pair<std::uint32_t, std::uint32_t>, int> want_first{
      {{0, 1}, 1}, {{2, 1}, 1}, {{3, 2}, 1}, {{1, 2}, 1}};
  EXPECT_EQ(first, want_first);
  // The broadcast's last level reverses the reduce's first.
  for (std::size_t i = 0; i < tree.phases[0].instance.flows.size(); ++i) {
    EXPECT_EQ(tree.phases[3].instance.flows[i].src, tree.phases[0].instance.flows[i].dst);
    EXPECT_EQ(tree.phases[3].instance.flows[i].dst, tree.phases[0].instance.flows[i].src);
  }
  for (const auto& p : tree.phases) EXPECT_DOUBLE_EQ(p.volume, 0.5);
}

TEST(RoceCollectives, RankListErrors) {
  const std::vector<std::uint32_t> repeated{3, 1, 3};
  const auto r = make_collective(CollectiveSpec{CollectiveKind::kRingAllReduce, 0}, repeated);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(r.error().message.find("rank 2"), std::string::npos) << r.error().message;
  const std::vector<std::uint32_t> one{0};
  EXPECT_FALSE(make_collective(CollectiveSpec{CollectiveKind::kPipeline, 0}, one).ok());
}

// A comparison on a routed fabric: route() as in roce_compare_test.
class RoceCollectiveCompare : public RoutedFabricTest {
 protected:
  Result<Comparison> compare(std::vector<CollectiveSpec> collectives, std::vector<std::uint32_t> ranks = {},
                             unsigned threads = 0) const {
    CompareOptions o;
    o.threads = threads;
    o.patterns.seeds = 1;
    o.patterns.max_shifts = 1;
    o.patterns.all_to_all = false;
    o.collectives = std::move(collectives);
    o.ranks = std::move(ranks);
    return compare_schemes(topo, lids, tables, *plan, o);
  }

  static const CollectiveFigures& scheme(const CollectiveResult& c, const std::string& name) {
    for (const auto& s : c.schemes) {
      if (s.name == name) return s;
    }
    ADD_FAILURE() << name << " missing";
    static const CollectiveFigures kNone;
    return kNone;
  }
};

// 8-ary 2-tree: 8 leaves of 8 hosts, 8 spines, one cable per leaf/spine pair (full bisection).
// (1) The whole fabric in CA order: the ring leaves every leaf by one flow only (its last host to the
// next leaf's first), so no two flows ever share a cable and every scheme, hashing included, is at ideal.
// (2) Ranks striped over the leaves (rank i on leaf i mod 8): every flow leaves its leaf, 8 per leaf, to 8
// distinct host positions of one leaf. ftree gives each host position of a leaf its own spine, so those 8
// flows take 8 different uplinks and downlinks: ideal. ECMP hashes 8 flows onto 8 uplinks; all distinct
// has probability 8!/8^8 = 0.24 % per leaf, so some cable carries 2..8 flows and the ring is slower: the
// slowest flow gets 1/m of a cable shared by m, so relative time lies in (1, 8], and busBw = 1/relative.
TEST_F(RoceCollectiveCompare, FtreeRingAtIdealWhereHashingIsNot) {
  ASSERT_NO_FATAL_FAILURE(route(make_kary_ntree(8, 2), "ftree"));
  const CollectiveSpec ring{CollectiveKind::kRingAllReduce, 0};
  const auto whole = compare({ring});
  ASSERT_TRUE(whole.ok()) << whole.error().message;
  ASSERT_EQ(whole->collectives.size(), 1u);
  const auto& w = whole->collectives[0];
  EXPECT_EQ(w.ranks, 64u);
  EXPECT_EQ(w.phases, 126u);
  EXPECT_NEAR(w.ideal_time, 126.0 / 64, 1e-12);
  for (const char* s : {"ib-static", "ib-adaptive", "roce-ecmp"}) {
    EXPECT_DOUBLE_EQ(scheme(w, s).relative_time, 1.0) << s;
    EXPECT_NEAR(scheme(w, s).bus_bandwidth, 1.0, 1e-12) << s;
  }

  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  std::map<SwitchIndex, std::vector<std::uint32_t>> by_leaf;
  for (std::uint32_t e = 0; e < tracer.endpoints().size(); ++e) by_leaf[tracer.endpoints()[e].sw].push_back(e);
  ASSERT_EQ(by_leaf.size(), 8u);
  std::vector<std::uint32_t> striped;
  for (std::size_t h = 0; h < 8; ++h) {
    for (const auto& [leaf, hosts] : by_leaf) striped.push_back(hosts[h]);
  }
  const auto cmp = compare({ring}, striped);
  ASSERT_TRUE(cmp.ok()) << cmp.error().message;
  const auto& c = cmp->collectives[0];
  EXPECT_NEAR(c.ideal_time, 126.0 / 64, 1e-12);
  EXPECT_DOUBLE_EQ(scheme(c, "ib-static").relative_time, 1.0);
  const auto& ecmp = scheme(c, "roce-ecmp");
  EXPECT_GT(ecmp.relative_time, 1.0 + 1e-9);
  EXPECT_LE(ecmp.relative_time, 8.0 + 1e-9);
  EXPECT_NEAR(ecmp.bus_bandwidth, 1.0 / ecmp.relative_time, 1e-12);
  EXPECT_EQ(ecmp.unrouted, 0u);
  RecordProperty("ecmp_striped_ring_relative_time", std::to_string(ecmp.relative_time));
  // The figures do not depend on how the phases were spread over threads (AR's order is seeded).
  const auto one = compare({ring, CollectiveSpec{CollectiveKind::kTreeAllReduce, 0}}, striped, 1);
  const auto two = compare({ring, CollectiveSpec{CollectiveKind::kTreeAllReduce, 0}}, striped, 2);
  ASSERT_TRUE(one.ok() && two.ok());
  for (std::size_t k = 0; k < 2; ++k) {
    for (std::size_t s = 0; s < 3; ++s) {
      EXPECT_EQ(one->collectives[k].schemes[s].time, two->collectives[k].schemes[s].time) << k << " " << s;
    }
  }
  EXPECT_EQ(one->collectives[0].schemes[2].time, ecmp.time);
}

// One phase's time is its volume over the slowest flow's max-min rate, the rates being those of the
// water-filling (maxmin.h) on the flows' paths: here the ib-static paths traced through the LFTs by
// FlowTracer, with maxmin_rates called directly. MoE groups of 4 on a 2-level tree with 2 spines cross
// leaves, so the rates are not all equal.
TEST_F(RoceCollectiveCompare, OnePhaseIsTheMaxMinEvaluatorOnTheSameFlows) {
  ASSERT_NO_FATAL_FAILURE(route(make_leaf_spine(LeafSpineSpec{4, 2, 3, 1}), "minhop"));
  const CollectiveSpec moe{CollectiveKind::kMoeAllToAll, 4};
  const auto cmp = compare({moe});
  ASSERT_TRUE(cmp.ok()) << cmp.error().message;
  const std::size_t r = cmp->endpoints;
  const Collective col = build(CollectiveKind::kMoeAllToAll, r, 4);
  ASSERT_EQ(col.phases.size(), 1u);

  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  std::vector<std::uint32_t> offsets{0}, channels;
  for (const auto& f : col.phases[0].instance.flows) {
    std::vector<std::uint32_t> path;
    ASSERT_TRUE(tracer.trace(f.src, f.dst, path));
    channels.insert(channels.end(), path.begin(), path.end());
    offsets.push_back(static_cast<std::uint32_t>(channels.size()));
  }
  const auto rates = maxmin_rates(offsets, channels, tracer.num_channels());
  double slowest = 1.0;
  for (double x : rates) slowest = std::min(slowest, x);
  const auto& st = scheme(cmp->collectives[0], "ib-static");
  EXPECT_NEAR(st.time, 0.25 / slowest, 1e-12);
  EXPECT_NEAR(st.relative_time, (0.25 / slowest) / 0.75, 1e-12);  // ideal: 3 flows of S/4 per host
  EXPECT_LT(slowest, 1.0 / 3 - 1e-9) << "groups of 4 over leaves of 3 must share an uplink";
}

// On one switch (a crossbar) every collective is at ideal under every scheme; a rank naming an endpoint
// the fabric does not have is an error naming the rank.
TEST_F(RoceCollectiveCompare, CrossbarIsIdealAndRanksAreChecked) {
  ASSERT_NO_FATAL_FAILURE(route(make_single_switch(5), "minhop"));
  const auto cmp =
      compare({CollectiveSpec{CollectiveKind::kAllToAll, 0}, CollectiveSpec{CollectiveKind::kPipeline, 0}});
  ASSERT_TRUE(cmp.ok());
  // One switch is a crossbar: every scheme is at ideal (4 flows of S/5 per host: 0.8).
  for (const auto& c : cmp->collectives) {
    for (const auto& s : c.schemes) {
      EXPECT_DOUBLE_EQ(s.relative_time, 1.0) << c.name << " " << s.name;
      EXPECT_EQ(s.unrouted, 0u);
    }
  }
  EXPECT_NEAR(cmp->collectives[0].ideal_time, 0.8, 1e-12);
  const std::vector<std::uint32_t> out_of_range{0, 1, 9};
  const auto bad = compare({CollectiveSpec{CollectiveKind::kPipeline, 0}}, out_of_range);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("rank 2"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace smd::roce::roce_collectives_test
