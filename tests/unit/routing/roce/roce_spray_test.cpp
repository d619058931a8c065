// The two Ethernet schemes that bracket RoCE (routing/roce/spray_eval.h, scheme_eval.h): roce-spray against
// cases solved by hand and against a plain reference (every flow's split found by recursion over the BGP
// groups, weighted water-filling by the definition), and roce-eecmp against hashing and spraying on a
// full-bisection 2-level Clos.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/quality/flow_trace.h"
#include "routing/roce/compare.h"
#include "routing/roce/scheme_eval.h"
#include "tests/unit/routing/roce/routed_fabric_test.h"

namespace smd::roce::roce_spray_test {
namespace {

class RoceSpray : public RoutedFabricTest {
 protected:
  Result<Comparison> compare(const CompareOptions& o) const { return compare_schemes(topo, lids, tables, *plan, o); }
};

// Two switches A and B joined by 2 cables, 3 hosts each. Flows F1 a0->b0, F2 a1->b1, F3 a2->b2 split 1/2
// on each cable (load 3/2 per cable); F4 a0->a1 stays on A. Filling: a0's host cable (F1, F4, weight 2)
// saturates first at 1/2; each A->B cable then has 1 - 1/2 x 1/2 = 3/4 left for F2 and F3 (weight
// 1/2 + 1/2): 3/4 each. Mean rate (1/2 + 1/2 + 3/4 + 3/4) / 4 = 5/8. Bottleneck shares: F1 and F4 1/2
// (a0's cable carries 2), F2 and F3 2/3 (cables at 3/2): mean 7/12. F1-F3 share the cables, F4 nothing.
// Counting each flow whole on every cable it touches (no weights) would freeze F1-F3 at 1/3 instead.
TEST_F(RoceSpray, SplitFlowsSolvedByHand) {
  ASSERT_NO_FATAL_FAILURE(route(make_two_switch(2, 3), "minhop"));
  const auto leaf = compare_endpoint_leaves(topo, lids, tables);
  std::vector<std::uint32_t> a, b;
  for (std::uint32_t e = 0; e < leaf.size(); ++e) (leaf[e] == leaf[0] ? a : b).push_back(e);
  ASSERT_EQ(a.size(), 3u);
  ASSERT_EQ(b.size(), 3u);
  CompareOptions o;
  o.patterns.seeds = 1;
  o.patterns.all_to_all = false;
  o.patterns.pairs = {{a[0], b[0]}, {a[1], b[1]}, {a[2], b[2]}, {a[0], a[1]}};
  const auto cmp = compare(o);
  ASSERT_TRUE(cmp.ok()) << cmp.error().message;
  const auto& s = figures(*cmp, "pairs", "roce-spray");
  EXPECT_EQ(s.flows, 4u);
  EXPECT_EQ(s.unrouted, 0u);
  EXPECT_NEAR(s.maxmin_throughput, 5.0 / 8, 1e-12);
  EXPECT_NEAR(s.mean_bottleneck_share, 7.0 / 12, 1e-12);
  EXPECT_DOUBLE_EQ(s.max_switch_link_load, 1.5);
  EXPECT_DOUBLE_EQ(s.max_link_load, 2.0);
  EXPECT_DOUBLE_EQ(s.collision_share, 0.75);
  EXPECT_NE(s.note.find("reordering not modelled"), std::string::npos) << s.note;
}

// A flow's fractions x(f, c) found the plain way: recursion over every branch of the BGP groups.
void spray_paths(const FlowTracer& tracer, const RoutePlan& plan, SwitchIndex s, SwitchIndex dst, double x,
                 std::size_t depth, std::map<std::uint32_t, double>& out, bool& ok) {
  const auto& g = tracer.graph();
  if (s == dst) return;
  const auto group = plan.fib().group(s, dst);
  if (group.empty() || depth > g.num_switches()) {
    ok = false;
    return;
  }
  for (PortNum p : group) {
    out[g.slot(s, p)] += x / group.size();
    const SwitchIndex t = g.peer_switch(s, p);
    if (t == kNoSwitch) {
      ok = false;
      return;
    }
    spray_paths(tracer, plan, t, dst, x / group.size(), depth + 1, out, ok);
  }
}

// Weighted max-min by the definition: raise every unfrozen flow's rate together; the channels whose level
// (remaining / unfrozen weight) is lowest saturate; their flows freeze there; repeat.
std::vector<double> textbook_weighted_maxmin(const std::vector<std::map<std::uint32_t, double>>& x, std::size_t n) {
  std::vector<double> rate(x.size(), 0.0), remaining(n, 1.0);
  std::vector<bool> frozen(x.size(), false);
  for (;;) {
    std::vector<double> weight(n, 0.0);
    for (std::size_t f = 0; f < x.size(); ++f) {
      if (!frozen[f])
        for (const auto& [c, w] : x[f]) weight[c] += w;
    }
    double level = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < n; ++c) {
      if (weight[c] > 1e-12) level = std::min(level, std::max(0.0, remaining[c]) / weight[c]);
    }
    if (level == std::numeric_limits<double>::infinity()) return rate;
    std::vector<std::size_t> freeze;
    for (std::size_t f = 0; f < x.size(); ++f) {
      if (frozen[f]) continue;
      for (const auto& [c, w] : x[f]) {
        if (weight[c] > 1e-12 && std::max(0.0, remaining[c]) / weight[c] <= level * (1 + 1e-9)) {
          freeze.push_back(f);
          break;
        }
      }
    }
    for (std::size_t f : freeze) {
      frozen[f] = true;
      rate[f] = level;
      for (const auto& [c, w] : x[f]) remaining[c] -= level * w;
    }
  }
}

// The evaluator against the reference on fabrics whose groups are uneven: a torus (updn: BGP's own-AS
// rule leaves some groups off the shortest paths) and a random graph, every pattern.
TEST_F(RoceSpray, MatchesThePlainReference) {
  for (const bool torus : {true, false}) {
    ASSERT_NO_FATAL_FAILURE(route(torus ? make_torus({3, 3}, 2) : make_random(10, 3, 2, 5), "minhop"));
    const FlowTracer tracer(topo, lids, tables, tables.ca_order);
    const auto& g = tracer.graph();
    const auto& eps = tracer.endpoints();
    const SchemeEvaluator evaluator(tracer, *plan, nullptr, EvalOptions{});
    PatternOptions po;
    po.max_shifts = 3;
    po.seeds = 2;
    EvalWorkspace ws;
    for (const auto& pattern : make_patterns(eps.size(), po)) {
      for (const auto& inst : pattern.instances) {
        SCOPED_TRACE(std::string(torus ? "torus " : "random ") + pattern.name);
        std::vector<std::map<std::uint32_t, double>> x;
        std::uint64_t unrouted = 0;
        for (const auto& f : inst.flows) {
          std::map<std::uint32_t, double> split;
          bool ok = true;
          spray_paths(tracer, *plan, eps[f.src].sw, eps[f.dst].sw, 1.0, 0, split, ok);
          if (!ok) {
            ++unrouted;
            continue;
          }
          split[static_cast<std::uint32_t>(g.num_slots() + f.src)] += 1.0;
          split[g.slot(eps[f.dst].sw, eps[f.dst].sw_port)] += 1.0;
          x.push_back(std::move(split));
        }
        std::vector<double> load(tracer.num_channels(), 0.0);
        std::vector<unsigned> crossing(tracer.num_channels(), 0);
        for (const auto& split : x)
          for (const auto& [c, w] : split) {
            load[c] += w;
            ++crossing[c];
          }
        const auto rate = textbook_weighted_maxmin(x, tracer.num_channels());
        double max_load = 0, max_switch = 0, bottleneck = 0, sum = 0, least = x.empty() ? 0.0 : 1e300;
        std::uint64_t collisions = 0;
        for (std::size_t c = 0; c < load.size(); ++c) {
          max_load = std::max(max_load, load[c]);
          if (tracer.is_switch_link(static_cast<std::uint32_t>(c))) max_switch = std::max(max_switch, load[c]);
        }
        for (std::size_t f = 0; f < x.size(); ++f) {
          double worst = 0;
          bool collides = false;
          for (const auto& [c, w] : x[f]) {
            worst = std::max(worst, load[c]);
            collides |= tracer.is_switch_link(c) && crossing[c] >= 2;
          }
          bottleneck += 1.0 / worst;
          sum += rate[f];
          least = std::min(least, rate[f]);
          collisions += collides;
        }
        const InstanceFigures got = evaluator.evaluate(inst, Scheme::kSpray, ws);
        EXPECT_EQ(got.flows, inst.flows.size());
        EXPECT_EQ(got.unrouted, unrouted);
        EXPECT_EQ(got.collisions, collisions);
        EXPECT_NEAR(got.max_load, max_load, 1e-9);
        EXPECT_NEAR(got.max_switch_load, max_switch, 1e-9);
        EXPECT_NEAR(got.bottleneck_sum, bottleneck, 1e-9);
        EXPECT_NEAR(got.maxmin_sum, sum, 1e-9);
        EXPECT_NEAR(got.min_flow_rate, least, 1e-9);
      }
    }
  }
}

// On a non-blocking 2-level Clos (h hosts and h uplinks a leaf, one cable per leaf/spine pair) a
// permutation sends at most h flows out of a leaf and h into one; sprayed, each puts 1/h on each uplink and
// on each downlink, so no cable carries more than 1 and every flow runs at line rate: for any permutation,
// shifts and bisections included, under ftree's or minhop's tables alike (spraying ignores them).
TEST_F(RoceSpray, SprayReachesLineRateOnANonBlockingClos) {
  for (const bool kary : {true, false}) {
    ASSERT_NO_FATAL_FAILURE(
        route(kary ? make_kary_ntree(4, 2) : make_leaf_spine(LeafSpineSpec{8, 4, 4, 1}), kary ? "ftree" : "minhop"));
    CompareOptions o;
    o.patterns.seeds = 20;
    o.patterns.max_shifts = 0;
    o.patterns.all_to_all = false;
    const auto cmp = compare(o);
    ASSERT_TRUE(cmp.ok()) << cmp.error().message;
    for (const char* pattern : {"shift", "permutation", "bisection"}) {
      const auto& s = figures(*cmp, pattern, "roce-spray");
      EXPECT_NEAR(s.maxmin_throughput, 1.0, 1e-12) << pattern;
      EXPECT_NEAR(s.mean_bottleneck_share, 1.0, 1e-12) << pattern;
      EXPECT_LE(s.max_switch_link_load, 1.0 + 1e-12) << pattern;
      EXPECT_EQ(s.unrouted, 0u);
      // Hashing the same flows does not reach it.
      EXPECT_LT(figures(*cmp, pattern, "roce-ecmp").maxmin_throughput, 0.9) << pattern;
    }
  }
}

// Meta's pair on a full-bisection 2-level Clos (16 leaves x 8 hosts, 8 spines; 40 random permutations):
// with one QP, hashing the QPN too is just another uniform hash, so roce-eecmp equals roce-ecmp up to
// sampling (each mean over 5,120 flows has a standard error near 0.005: 0.03 is about four of the
// difference's); with more QPs per connection it climbs toward spraying's line rate.
TEST_F(RoceSpray, EecmpGoesFromPlainHashingToSprayingAsQpsGrow) {
  ASSERT_NO_FATAL_FAILURE(route(make_leaf_spine(LeafSpineSpec{16, 8, 8, 1}), "minhop"));
  CompareOptions o;
  o.patterns.seeds = 40;
  o.patterns.max_shifts = 8;
  o.patterns.all_to_all = false;
  std::vector<double> share;
  for (unsigned qps : {1u, 4u, 16u, 64u}) {
    o.qps = qps;
    const auto cmp = compare(o);
    ASSERT_TRUE(cmp.ok()) << cmp.error().message;
    EXPECT_EQ(cmp->eecmp_qps, qps);
    const auto& eecmp = figures(*cmp, "permutation", "roce-eecmp");
    const auto& spray = figures(*cmp, "permutation", "roce-spray");
    EXPECT_NEAR(spray.maxmin_throughput, 1.0, 1e-12);
    if (qps == 1) {
      const auto& ecmp = figures(*cmp, "permutation", "roce-ecmp");
      EXPECT_NEAR(eecmp.maxmin_throughput, ecmp.maxmin_throughput, 0.03);
      EXPECT_NEAR(eecmp.mean_bottleneck_share, ecmp.mean_bottleneck_share, 0.03);
      EXPECT_NEAR(eecmp.mean_max_link_load, ecmp.mean_max_link_load, 0.4);
    }
    RecordProperty("eecmp_maxmin_qps_" + std::to_string(qps), std::to_string(eecmp.maxmin_throughput));
    share.push_back(eecmp.maxmin_throughput);
  }
  for (std::size_t i = 1; i < share.size(); ++i) EXPECT_GT(share[i], share[i - 1]) << i;
  EXPECT_LT(share.front(), 0.7);
  EXPECT_GT(share.back(), 0.95);
}

// Without --qps roce-eecmp opens kDefaultEecmpQps QPs while ib-adaptive keeps one QP (its meaning from
// before roce-eecmp existed); roce-ecmp always one.
TEST_F(RoceSpray, QpsDefaults) {
  ASSERT_NO_FATAL_FAILURE(route(make_two_switch(2, 2), "minhop"));
  CompareOptions o;
  o.patterns.seeds = 1;
  o.patterns.all_to_all = false;
  const auto cmp = compare(o);
  ASSERT_TRUE(cmp.ok());
  EXPECT_EQ(cmp->qps, 1u);
  EXPECT_EQ(cmp->eecmp_qps, 4u);
  EXPECT_NE(figures(*cmp, "shift", "roce-eecmp").note.find("4 QP(s) per connection"), std::string::npos);
  EXPECT_NE(figures(*cmp, "shift", "roce-ecmp").note.find("one QP per connection"), std::string::npos);
}

}  // namespace
}  // namespace smd::roce::roce_spray_test
