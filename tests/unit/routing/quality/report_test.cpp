// Quality figures: loads computed by hand on tiny fabrics, and on generated fabrics against a brute-force
// tracer written here (walks Node/Port structures directly, one flow at a time, N^2 flows).
#include "routing/quality/report.h"

#include <gtest/gtest.h>

#include <map>

#include "tests/unit/routing/hand_node.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/fabric_gen/fabric_gen.h"

namespace smd::report_test {
namespace {

using test::make_node;

LidMap number_lids(const Topology& t) {
  LidMap lids;
  Lid next = 1;
  for (NodeIndex n : t.cas()) EXPECT_TRUE(lids.assign(n, 1, next++, 0).ok());
  for (NodeIndex n : t.switches()) EXPECT_TRUE(lids.assign(n, 0, next++, 0).ok());
  return lids;
}

/// 2 leaves x 2 hosts x 1 spine: leaf ports 1,2 hosts, 3 spine; spine port 1 leaf0, 2 leaf1.
struct TwoLeaves {
  Topology t;
  LidMap lids;
  RoutingTables r;
  NodeIndex h[4], leaf[2], spine;
  TwoLeaves() {
    for (int i = 0; i < 4; ++i) h[i] = t.add_node(make_node(NodeType::kCa, 1, 0x10 + i)).value();
    for (int i = 0; i < 2; ++i) leaf[i] = t.add_node(make_node(NodeType::kSwitch, 3, 0x20 + i)).value();
    spine = t.add_node(make_node(NodeType::kSwitch, 2, 0x30)).value();
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(t.connect(leaf[i / 2], 1 + i % 2, h[i], 1).ok());
    for (int l = 0; l < 2; ++l) EXPECT_TRUE(t.connect(leaf[l], 3, spine, 1 + l).ok());
    lids = number_lids(t);
    r = minhop_factory().create({})->compute(t, lids).value();  // one path per pair: the only possible tables
  }
};

TEST(Quality, TwoLeavesOneSpineShiftLoadsByHand) {
  TwoLeaves f;
  auto q = compute_quality(f.t, f.lids, f.r, QualityOptions{});
  ASSERT_TRUE(q.ok()) << q.error().message;
  EXPECT_EQ(q->endpoints, 4u);
  EXPECT_EQ(q->pairs, 12u);
  EXPECT_EQ(q->reachable_pairs, 12u);
  // k=1: 0->1, 1->2, 2->3, 3->0: one flow per cable -> 1. k=2: 0->2 and 1->3 share leaf0's up cable -> 2.
  // k=3: 0->3 and 2->1 cross in opposite directions -> 1.
  EXPECT_EQ(q->shifts_total, 3u);
  EXPECT_EQ(q->shifts_evaluated, 3u);
  EXPECT_EQ(q->shift_max_load, 2u);
  EXPECT_EQ(q->shift_worst_k, 2u);
  EXPECT_DOUBLE_EQ(q->shift_mean_max_load, 4.0 / 3.0);
  // All-to-all: leaf0 -> spine carries h0,h1 -> h2,h3: 4 flows.
  EXPECT_EQ(q->efi_max, 4u);
  EXPECT_EQ(q->unreachable_flows, 0u);
  EXPECT_TRUE(q->deadlock_free);
  // Any permutation puts at most two flows on one up cable.
  EXPECT_GE(q->perm_max_load_mean, 1.0);
  EXPECT_LE(q->perm_max_load_max, 2u);
}

TEST(Quality, TwoLeavesEbbMatchesThePairingProbabilities) {
  TwoLeaves f;
  // A bisection pairs the 4 hosts: 1 of the 3 pairings keeps pairs on their leaf (every flow at rate 1),
  // the other 2 send 2 flows over each up cable (rate 1/2). Single samples are one or the other.
  QualityOptions one;
  one.ebb_samples = 1;
  auto q1 = compute_quality(f.t, f.lids, f.r, one);
  ASSERT_TRUE(q1.ok());
  EXPECT_TRUE(q1->ebb == 0.5 || q1->ebb == 1.0) << q1->ebb;
  QualityOptions many;
  many.ebb_samples = 600;
  auto q = compute_quality(f.t, f.lids, f.r, many);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->ebb_samples, 600u);
  EXPECT_NEAR(q->ebb, 1.0 / 3 + 2.0 / 3 * 0.5, 0.04);
}

TEST(Quality, SingleSwitchIsACrossbar) {
  auto t = make_single_switch(8);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const LidMap lids = number_lids(*t);
  auto r = minhop_factory().create({})->compute(*t, lids);
  ASSERT_TRUE(r.ok());
  auto q = compute_quality(*t, lids, *r, QualityOptions{});
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->shift_max_load, 1u);
  EXPECT_DOUBLE_EQ(q->perm_max_load_mean, 1.0);
  EXPECT_DOUBLE_EQ(q->ebb, 1.0);
  EXPECT_EQ(q->efi_max, 0u);  // no switch-to-switch cable
  EXPECT_EQ(q->reachable_pairs, 56u);
}

TEST(Quality, BlackHoleShowsAsUnreachablePairs) {
  TwoLeaves f;
  f.r.lft[f.leaf[0]].set(3, kNoPort);  // leaf0 drops LID 3 (h2): h0->h2 and h1->h2 fail
  const VerifyReport pretend{};
  auto q = compute_quality(f.t, f.lids, f.r, QualityOptions{}, &pretend);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->reachable_pairs, 10u);
  // leaf0->spine now carries only h0,h1 -> h3 (2 flows), but leaf1->spine still carries h2,h3 -> h0,h1.
  EXPECT_EQ(q->efi_max, 4u);
  // Without verification the broken tables are refused:
  auto refused = compute_quality(f.t, f.lids, f.r, QualityOptions{});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kVerifyFailed);
}

TEST(Quality, SampledShiftsAreCountedAndSpread) {
  auto t = make_single_switch(50);
  ASSERT_TRUE(t.ok());
  const LidMap lids = number_lids(*t);
  auto r = minhop_factory().create({})->compute(*t, lids);
  ASSERT_TRUE(r.ok());
  QualityOptions o;
  o.max_shifts = 7;
  auto q = compute_quality(*t, lids, *r, o);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->shifts_total, 49u);
  EXPECT_EQ(q->shifts_evaluated, 7u);
}

/// Brute force over Node/Port: trace one flow, adding to load[(node, out port)].
bool brute_trace(const Topology& t, const RoutingTables& r, NodeIndex src, NodeIndex dst, Lid lid,
                 std::map<std::pair<NodeIndex, PortNum>, int>& load) {
  ++load[{src, 1}];
  NodeIndex at = t.node(src).ports[1].peer;
  for (int hops = 0; hops < 64; ++hops) {
    const PortNum p = r.lft[at].get(lid);
    if (p == kNoPort || p == 0) return false;
    ++load[{at, p}];
    const NodeIndex next = t.node(at).ports[p].peer;
    if (next == dst) return true;
    if (next == kNoNode || !t.node(next).is_switch()) return false;
    at = next;
  }
  return false;
}

int max_switch_link_load(const Topology& t, const std::map<std::pair<NodeIndex, PortNum>, int>& load) {
  int m = 0;
  for (const auto& [key, v] : load) {
    const Node& n = t.node(key.first);
    if (n.is_switch() && t.node(n.ports[key.second].peer).is_switch()) m = std::max(m, v);
  }
  return m;
}

TEST(Quality, GeneratedTreesMatchBruteForceShiftsAndAllToAll) {
  for (auto make : {+[] { return make_kary_ntree(4, 2); }, +[] { return make_kary_ntree(3, 3); },
                    +[] { return make_random(12, 4, 3, 5); }}) {
    auto t = make();
    ASSERT_TRUE(t.ok()) << t.error().message;
    const LidMap lids = number_lids(*t);
    auto r = minhop_factory().create({})->compute(*t, lids);
    ASSERT_TRUE(r.ok());
    QualityOptions o;
    o.max_shifts = 0;
    o.perm_seeds = 3;
    o.ebb_samples = 3;
    auto q = compute_quality(*t, lids, *r, o);
    ASSERT_TRUE(q.ok()) << q.error().message;
    const auto& cas = t->cas();
    const std::size_t n = cas.size();
    std::uint32_t worst = 0;
    for (std::size_t k = 1; k < n; ++k) {
      std::map<std::pair<NodeIndex, PortNum>, int> load;
      for (std::size_t i = 0; i < n; ++i) {
        const NodeIndex d = cas[(i + k) % n];
        ASSERT_TRUE(brute_trace(*t, *r, cas[i], d, lids.base_lid(d, 1), load));
      }
      for (const auto& [key, v] : load) worst = std::max<std::uint32_t>(worst, v);
    }
    EXPECT_EQ(q->shift_max_load, worst);
    std::map<std::pair<NodeIndex, PortNum>, int> all;
    for (NodeIndex s : cas) {
      for (NodeIndex d : cas) {
        if (s != d) {
          ASSERT_TRUE(brute_trace(*t, *r, s, d, lids.base_lid(d, 1), all));
        }
      }
    }
    EXPECT_EQ(q->efi_max, static_cast<std::uint64_t>(max_switch_link_load(*t, all)));
    EXPECT_EQ(q->reachable_pairs, n * (n - 1));
    EXPECT_GT(q->ebb, 0.0);
    EXPECT_LE(q->ebb, 1.0);
  }
}

}  // namespace
}  // namespace smd::report_test
