// The comparison before and after a loss (compare_before_after, RoutePlan::after_loss, svg_stack) on a
// leaf/spine small enough to work out by hand: 4 leaves of 2 hosts, 2 spines, one cable per leaf and
// spine (leaf port 3 -> spine-0, port 4 -> spine-1), ftree's tables.
//
//   One spine cable lost (leaf-0[3]): leaf-0's hosts reach the other leaves only by spine-1, and the
//   other leaves reach leaf-0 only by spine-1 (spine-0 -> leaf-j -> spine-1 -> leaf-0 is a valley BGP's
//   own-AS rule refuses, and longer than the path by spine-1). In shift k = 2..6 both of leaf-0's hosts
//   send off the leaf and both receive from off the leaf, so leaf-0 <-> spine-1 carries 2 flows each way
//   whatever the scheme; no cable can carry more, since a leaf has 2 hosts and each sends and receives
//   one flow. Shift max link load after: 2 under ib-static (the daemon's repair), ib-adaptive and
//   roce-ecmp alike; before, ftree's shift-optimal tables put 1 on every cable.
//
//   Leaf leaf-0 lost: host-0 and host-1 are cut off. A shift over 8 endpoints has 4 flows touching them
//   (2 out, 2 in) except k = 1 and k = 7, where one flow runs between the two: 5 x 4 + 2 x 3 = 26 flows
//   unrouted over the 7 shifts, and all-to-all has 8 x 7 - 6 x 5 = 26 too, under every scheme; a ring
//   over all 8 ranks never ends.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/roce/compare.h"
#include "routing/roce/svg_stack.h"
#include "routing/whatif/fabric_loss.h"
#include "tests/unit/routing/roce/routed_fabric_test.h"

namespace smd::roce::roce_loss_test {
namespace {

class RoceLossTest : public RoutedFabricTest {
 protected:
  void SetUp() override {
    LeafSpineSpec spec;
    spec.leaves = 4;
    spec.spines = 2;
    spec.hosts_per_leaf = 2;
    ASSERT_NO_FATAL_FAILURE(route(make_leaf_spine(spec), "ftree"));
    options.patterns.max_shifts = 0;  // all 7 shifts
    options.patterns.seeds = 2;
    options.threads = 2;
    auto ring = parse_collectives("ring");
    ASSERT_TRUE(ring.ok()) << ring.error().message;
    options.collectives = std::move(ring).value();
  }

  /// Lose `parts` as `smd plan --fail` does: ftree then minhop, minimal repair.
  void lose(std::vector<std::string> parts) {
    RerouteOptions reroute;
    reroute.chain = {"ftree", "minhop"};
    auto lost = lose_parts(topo, lids, tables, parts, "--fail", reroute);
    ASSERT_TRUE(lost.ok()) << lost.error().message;
    loss.emplace(std::move(lost).value());
    auto after = plan->after_loss(loss->topo);
    ASSERT_TRUE(after.ok()) << after.error().message;
    plan_after.emplace(std::move(after).value());
    auto both =
        compare_before_after(topo, lids, tables, *plan, {&loss->topo, &loss->routed.tables, &*plan_after}, options);
    ASSERT_TRUE(both.ok()) << both.error().message;
    result.emplace(std::move(both).value());
  }

  SwitchIndex sw(const char* name) const {
    for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
      if (plan->switches()[s].name == name) return s;
    }
    ADD_FAILURE() << name << " missing";
    return kNoSwitch;
  }

  CompareOptions options;
  std::optional<FabricLoss> loss;
  std::optional<RoutePlan> plan_after;
  std::optional<LossComparison> result;
};

const char* const kSchemes[] = {"ib-static", "ib-adaptive", "roce-ecmp", "roce-eecmp", "roce-spray"};

// The run after the loss reuses the buffers of the run before (compare_before_after keeps the threads'
// workspaces), and thread t always takes the same units: the figures after must not depend on what the
// buffers held, so 1, 2 and 3 threads (different units per workspace, the after run's units evaluated on
// buffers grown by others) give the same figures, bit for bit, before and after. A lost leaf changes
// the leaves roce-spray's class table is laid out by (it crashed on the table of the fabric before).
TEST_F(RoceLossTest, FiguresAfterTheLossDoNotDependOnTheThreadsOrTheirReusedBuffers) {
  auto ring = parse_collectives("ring,alltoall");
  ASSERT_TRUE(ring.ok()) << ring.error().message;
  options.collectives = std::move(ring).value();
  options.patterns.all_to_all = true;
  auto same = [](const Comparison& a, const Comparison& b, const std::string& what) {
    ASSERT_EQ(a.patterns.size(), b.patterns.size());
    for (std::size_t p = 0; p < a.patterns.size(); ++p) {
      for (std::size_t s = 0; s < kNumSchemes; ++s) {
        const auto& x = a.patterns[p].schemes[s];
        const auto& y = b.patterns[p].schemes[s];
        const std::string at = what + " " + a.patterns[p].name + " " + x.name;
        EXPECT_EQ(x.maxmin_throughput, y.maxmin_throughput) << at;
        EXPECT_EQ(x.mean_bottleneck_share, y.mean_bottleneck_share) << at;
        EXPECT_EQ(x.mean_max_link_load, y.mean_max_link_load) << at;
        EXPECT_EQ(x.max_switch_link_load, y.max_switch_link_load) << at;
        EXPECT_EQ(x.collision_share, y.collision_share) << at;
        EXPECT_EQ(x.unrouted, y.unrouted) << at;
      }
    }
    ASSERT_EQ(a.collectives.size(), b.collectives.size());
    for (std::size_t c = 0; c < a.collectives.size(); ++c) {
      for (std::size_t s = 0; s < kNumSchemes; ++s) {
        EXPECT_EQ(a.collectives[c].schemes[s].time, b.collectives[c].schemes[s].time)
            << what << " " << a.collectives[c].name << " " << a.collectives[c].schemes[s].name;
      }
    }
  };
  for (const char* part : {"leaf-0[3]", "leaf-0"}) {
    std::vector<LossComparison> runs;
    for (unsigned threads : {1u, 2u, 3u}) {
      options.threads = threads;
      ASSERT_NO_FATAL_FAILURE(lose({part}));
      runs.push_back(*result);
    }
    for (std::size_t r = 1; r < runs.size(); ++r) {
      same(runs[0].before, runs[r].before, std::string(part) + ": before, run " + std::to_string(r));
      same(runs[0].after, runs[r].after, std::string(part) + ": after, run " + std::to_string(r));
    }
    // The loss moved something, so "after" is not the buffers of "before" read back.
    const SchemeFigures& shift_before = runs[0].before.patterns[0].schemes[0];
    const SchemeFigures& shift_after = runs[0].after.patterns[0].schemes[0];
    ASSERT_EQ(runs[0].before.patterns[0].name, "shift");
    EXPECT_TRUE(shift_before.max_link_load != shift_after.max_link_load || shift_before.unrouted != shift_after.unrouted)
        << part;
  }
}

TEST_F(RoceLossTest, OneSpineCableDoublesTheShiftMaxLoadUnderEveryScheme) {
  ASSERT_NO_FATAL_FAILURE(lose({"leaf-0[3]"}));
  EXPECT_EQ(loss->cables, 1u);
  EXPECT_TRUE(result->cut_off.empty());
  EXPECT_DOUBLE_EQ(figures(result->before, "shift", "ib-static").max_link_load, 1.0);
  for (const char* scheme : kSchemes) {
    const SchemeFigures& after = figures(result->after, "shift", scheme);
    EXPECT_DOUBLE_EQ(after.max_link_load, 2.0) << scheme;
    EXPECT_DOUBLE_EQ(after.max_switch_link_load, 2.0) << scheme;
    EXPECT_EQ(after.unrouted, 0u) << scheme;
    EXPECT_EQ(after.flows, 7u * 8u) << scheme;
    EXPECT_LE(figures(result->before, "shift", scheme).max_link_load, 2.0) << scheme;
  }
  // The daemon keeps what still delivers: only the routes over the lost cable moved.
  EXPECT_TRUE(loss->routed.made_by == "local repair" || loss->routed.made_by == "minimal repair")
      << loss->routed.made_by;
  EXPECT_GT(loss->routed.entries_kept, 0u);
}

TEST_F(RoceLossTest, BgpAfterTheLossKeepsAddressesAndShrinksTheGroups) {
  ASSERT_NO_FATAL_FAILURE(lose({"leaf-0[3]"}));
  const SwitchIndex leaf0 = sw("leaf-0"), leaf1 = sw("leaf-1"), spine0 = sw("spine-0"), spine1 = sw("spine-1");
  // Before: two uplinks toward leaf-1; spine-0 reaches leaf-0 directly.
  EXPECT_EQ(plan->fib().group(leaf0, leaf1).size(), 2u);
  EXPECT_EQ(plan->fib().group(spine0, leaf0).size(), 1u);
  // After: only port 4 (spine-1) is left at leaf-0; leaf-1 reaches leaf-0 only by spine-1; spine-0's
  // only way to leaf-0 crosses the spines' own AS, so BGP installs none.
  const auto up = plan_after->fib().group(leaf0, leaf1);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0], 4u);
  const auto down = plan_after->fib().group(leaf1, leaf0);
  ASSERT_EQ(down.size(), 1u);
  EXPECT_EQ(plan_after->graph().peer_switch(leaf1, down[0]), spine1);
  EXPECT_TRUE(plan_after->fib().group(spine0, leaf0).empty());
  // Configuration unchanged: every host keeps its address, every switch its ASN and loopback.
  ASSERT_EQ(plan_after->hosts().size(), plan->hosts().size());
  for (std::size_t h = 0; h < plan->hosts().size(); ++h) EXPECT_EQ(plan_after->hosts()[h].ip, plan->hosts()[h].ip);
  for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
    EXPECT_EQ(plan_after->switches()[s].asn, plan->switches()[s].asn);
    EXPECT_EQ(plan_after->switches()[s].loopback, plan->switches()[s].loopback);
  }
  EXPECT_EQ(plan_after->switches()[leaf0].interfaces.size(), 1u);
  EXPECT_EQ(plan_after->switches()[spine0].interfaces.size(), 3u);
}

TEST_F(RoceLossTest, ALostLeafCutsItsHostsOffForEveryScheme) {
  ASSERT_NO_FATAL_FAILURE(lose({"leaf-0"}));
  EXPECT_EQ(loss->cables, 4u);      // 2 hosts, 2 spines
  EXPECT_EQ(loss->nodes_gone, 3u);  // the leaf and its hosts: discovery finds none of them
  ASSERT_EQ(result->cut_off.size(), 2u);
  EXPECT_EQ(topo.node(result->cut_off[0].ca).description, "host-0");
  EXPECT_EQ(topo.node(result->cut_off[1].ca).description, "host-1");
  ASSERT_FALSE(result->after.notes.empty());
  EXPECT_NE(result->after.notes.back().find("2 of 8 endpoints are cut off (host-0[1], host-1[1])"), std::string::npos)
      << result->after.notes.back();
  EXPECT_EQ(result->after.endpoints, 8u);
  EXPECT_EQ(plan_after->hosts().size(), 6u);
  for (const char* scheme : kSchemes) {
    EXPECT_EQ(figures(result->before, "shift", scheme).unrouted, 0u) << scheme;
    EXPECT_EQ(figures(result->after, "shift", scheme).unrouted, 26u) << scheme;
    EXPECT_EQ(figures(result->after, "shift", scheme).flows, 56u) << scheme;
    EXPECT_EQ(figures(result->after, "all-to-all", scheme).unrouted, 26u) << scheme;
  }
  ASSERT_EQ(result->after.collectives.size(), 1u);
  for (std::size_t s = 0; s < result->after.collectives[0].schemes.size(); ++s) {
    EXPECT_TRUE(std::isfinite(result->before.collectives[0].schemes[s].relative_time));
    EXPECT_FALSE(std::isfinite(result->after.collectives[0].schemes[s].relative_time));
    EXPECT_GT(result->after.collectives[0].schemes[s].unrouted, 0u);
  }
}

TEST_F(RoceLossTest, ADeadSpineIsNotInTheFabricTheRepairRoutes) {
  // A drained switch stays in the topology without cables and ftree declines it ("not connected to the
  // leaves"); a dead one is not discovered, so ftree routes the one-spine tree that is left. Every leaf
  // then has one uplink for its two hosts: shift max link load 2 under every scheme, nothing unrouted.
  ASSERT_NO_FATAL_FAILURE(lose({"spine-0"}));
  EXPECT_EQ(loss->cables, 4u);
  EXPECT_EQ(loss->nodes_gone, 1u);
  EXPECT_EQ(loss->routed.tables.engine, "ftree") << loss->routed.made_by;
  const NodeIndex spine0 = plan->switches()[sw("spine-0")].node;
  ASSERT_EQ(loss->routed.tables.lft.size(), topo.size());
  EXPECT_EQ(loss->routed.tables.lft[spine0].top(), 0u);
  EXPECT_GT(loss->routed.tables.lft[plan->switches()[sw("spine-1")].node].top(), 0u);
  EXPECT_TRUE(result->cut_off.empty());
  for (const char* scheme : kSchemes) {
    EXPECT_DOUBLE_EQ(figures(result->after, "shift", scheme).max_link_load, 2.0) << scheme;
    for (const auto& p : result->after.patterns) EXPECT_EQ(figures(result->after, p.name, scheme).unrouted, 0u);
  }
}

TEST_F(RoceLossTest, NoLossGivesTheComparisonBeforeTwice) {
  // The fabric "after" is the fabric before: every figure must come out the same, flow for flow.
  auto same = plan->after_loss(topo);
  ASSERT_TRUE(same.ok()) << same.error().message;
  auto both = compare_before_after(topo, lids, tables, *plan, {&topo, &tables, &*same}, options);
  ASSERT_TRUE(both.ok()) << both.error().message;
  auto alone = compare_schemes(topo, lids, tables, *plan, options);
  ASSERT_TRUE(alone.ok());
  for (std::size_t p = 0; p < alone->patterns.size(); ++p) {
    for (std::size_t s = 0; s < alone->patterns[p].schemes.size(); ++s) {
      const auto& a = alone->patterns[p].schemes[s];
      for (const Comparison* c : {&both->before, &both->after}) {
        const auto& b = c->patterns[p].schemes[s];
        EXPECT_EQ(a.max_link_load, b.max_link_load) << a.name;
        EXPECT_EQ(a.maxmin_throughput, b.maxmin_throughput) << a.name;
        EXPECT_EQ(a.collision_share, b.collision_share) << a.name;
      }
    }
  }
}

TEST_F(RoceLossTest, FailNamesThePartTheWayDrainDoes) {
  RerouteOptions reroute;
  reroute.chain = {"ftree"};
  const std::vector<std::string> parts{"leaf-9"};
  auto lost = lose_parts(topo, lids, tables, parts, "--fail", reroute);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(lost.error().message, "--fail 'leaf-9': no node is named 'leaf-9'");
}

TEST(RoceSvgStack, NestsChartsOneBelowTheOther) {
  const std::vector<std::string> charts{
      "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"300\" height=\"100\"><rect/></svg>\n",
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"500\" height=\"40.5\"><text>b</text></svg>\n"};
  auto doc = svg_stack(charts);
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_NE(doc->find("width=\"500\" height=\"140.5\""), std::string::npos) << *doc;
  EXPECT_NE(doc->find("<svg x=\"0\" y=\"0\" xmlns=\"http://www.w3.org/2000/svg\" width=\"300\""), std::string::npos);
  EXPECT_NE(doc->find("<svg x=\"0\" y=\"100\" xmlns=\"http://www.w3.org/2000/svg\" width=\"500\""), std::string::npos);
  EXPECT_EQ(doc->find("<?xml", 1), std::string::npos);  // the charts' own declarations are gone
  const std::vector<std::string> bad{"<svg width=\"wide\" height=\"1\"></svg>"};
  auto refused = svg_stack(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("chart 1"), std::string::npos);
}

}  // namespace
}  // namespace smd::roce::roce_loss_test
