// Job placement (routing/roce/placement.h) and jobs in the comparison (compare.h): the generators
// against endpoint lists counted by hand, their parse errors, and on the 8-ary 2-tree a fragmented job
// whose ring all-reduce is at ideal under ftree's static routes and, ranked across leaves, above ideal
// under RoCE's hashing.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/quality/seeded_shuffle.h"
#include "routing/roce/compare.h"
#include "routing/roce/placement.h"
#include "tests/unit/routing/roce/routed_fabric_test.h"

namespace smd::roce::roce_placement_test {
namespace {

using Ranks = std::vector<std::uint32_t>;

TEST(RocePlacement, ParsesTheThreeKinds) {
  auto c = parse_placement("contiguous:12");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->kind, PlacementKind::kContiguous);
  EXPECT_EQ(c->ranks, 12u);
  auto f = parse_placement("fragmented:512,0.5");
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->kind, PlacementKind::kFragmented);
  EXPECT_EQ(f->ranks, 512u);
  EXPECT_DOUBLE_EQ(f->fill, 0.5);
  EXPECT_FALSE(f->across);
  auto a = parse_placement("fragmented:8,0.25,across");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_DOUBLE_EQ(a->fill, 0.25);
  EXPECT_TRUE(a->across);
  auto r = parse_placement("random:64,7");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->kind, PlacementKind::kRandom);
  EXPECT_EQ(r->seed, 7u);
}

TEST(RocePlacement, ParseErrorsQuoteTheTextAndThePart) {
  const std::pair<const char*, const char*> cases[] = {
      {"contiguous", "no ':'"},
      {"packed:8", "unknown placement 'packed'"},
      {"contiguous:1", "N must be"},
      {"contiguous:8,2", "contiguous takes only N"},
      {"contiguous:x8", "N must be"},
      {"fragmented:8", "needs a second number"},
      {"fragmented:8,0", "FILL must be"},
      {"fragmented:8,1.5", "FILL must be"},
      {"fragmented:8,half", "FILL must be"},
      {"fragmented:8,0.5,by-rack", "only be 'across'"},
      {"fragmented:8,,across", "FILL must be"},
      {"random:8,-1", "SEED must be"},
      {"random:8,", "SEED must be"},
  };
  for (const auto& [text, why] : cases) {
    const auto p = parse_placement(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.error().code, ErrorCode::kInvalidInput) << text;
    EXPECT_NE(p.error().message.find(std::string("'") + text + "'"), std::string::npos) << p.error().message;
    EXPECT_NE(p.error().message.find(why), std::string::npos) << p.error().message;
  }
}

// Four leaves (switch indices 7, 3, 9, 5) of four hosts each, endpoints 0..15 leaf by leaf, and an odd
// fabric with leaves of 3, 1 and 2 hosts interleaved.
const std::vector<SwitchIndex> kFourByFour{7, 7, 7, 7, 3, 3, 3, 3, 9, 9, 9, 9, 5, 5, 5, 5};
const std::vector<SwitchIndex> kUneven{2, 2, 4, 2, 6, 6};

Ranks place(const char* text, const std::vector<SwitchIndex>& leaves) {
  auto spec = parse_placement(text);
  EXPECT_TRUE(spec.ok()) << text;
  if (!spec.ok()) return {};
  auto ranks = place_job(*spec, leaves);
  EXPECT_TRUE(ranks.ok()) << text << ": " << ranks.error().message;
  return ranks.ok() ? *ranks : Ranks{};
}

TEST(RocePlacement, GeneratorsPickTheHostsCountedByHand) {
  EXPECT_EQ(place("contiguous:5", kFourByFour), (Ranks{0, 1, 2, 3, 4}));
  // Half of each leaf's 4 hosts at a time: 2 per leaf over ceil(6 / 2) = 3 leaves.
  EXPECT_EQ(place("fragmented:6,0.5", kFourByFour), (Ranks{0, 1, 4, 5, 8, 9}));
  // A quarter: 1 per leaf; 0.1 of 4 hosts rounds down to 0 and still takes 1.
  EXPECT_EQ(place("fragmented:4,0.25", kFourByFour), (Ranks{0, 4, 8, 12}));
  EXPECT_EQ(place("fragmented:3,0.1", kFourByFour), (Ranks{0, 4, 8}));
  // Three quarters: 3 per leaf, the last leaf gives what is left.
  EXPECT_EQ(place("fragmented:7,0.75", kFourByFour), (Ranks{0, 1, 2, 4, 5, 6, 8}));
  EXPECT_EQ(place("fragmented:16,1", kFourByFour), place("contiguous:16", kFourByFour));
  // Leaves in order of first appearance: leaf 2 holds endpoints 0, 1, 3; leaf 4 endpoint 2; leaf 6 4, 5.
  // fill 0.5: floor(1.5) = 1, max(1, floor(0.5)) = 1, floor(1) = 1.
  EXPECT_EQ(place("fragmented:3,0.5", kUneven), (Ranks{0, 2, 4}));
  EXPECT_EQ(place("fragmented:6,1", kUneven), (Ranks{0, 1, 3, 2, 4, 5}));
  // Across: the same hosts, one of each leaf in turn; leaves that run out are skipped.
  EXPECT_EQ(place("fragmented:6,0.5,across", kFourByFour), (Ranks{0, 4, 8, 1, 5, 9}));
  EXPECT_EQ(place("fragmented:7,0.75,across", kFourByFour), (Ranks{0, 4, 8, 1, 5, 2, 6}));
  EXPECT_EQ(place("fragmented:6,1,across", kUneven), (Ranks{0, 2, 4, 1, 5, 3}));
  // Random: the first N of the seeded shuffle of all endpoints, in the order drawn.
  const auto shuffled = seeded_shuffle(16, 3);
  EXPECT_EQ(place("random:5,3", kFourByFour), Ranks(shuffled.begin(), shuffled.begin() + 5));
  EXPECT_NE(place("random:16,3", kFourByFour), place("random:16,4", kFourByFour));
}

TEST(RocePlacement, TooFewHostsIsAnError) {
  auto too_many = place_job(*parse_placement("contiguous:17"), kFourByFour);
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.error().message.find("17 ranks asked, the fabric has 16 endpoints"), std::string::npos)
      << too_many.error().message;
  // Half of four leaves of four hosts holds 8.
  auto over_fill = place_job(*parse_placement("fragmented:9,0.5"), kFourByFour);
  ASSERT_FALSE(over_fill.ok());
  EXPECT_NE(over_fill.error().message.find("hold 8"), std::string::npos) << over_fill.error().message;
  EXPECT_FALSE(place_job(*parse_placement("random:17,1"), kFourByFour).ok());
}

TEST(RocePlacement, LeavesSpanned) {
  EXPECT_EQ(leaves_spanned(Ranks{0, 1, 2, 3}, kFourByFour), 1u);
  EXPECT_EQ(leaves_spanned(Ranks{0, 4, 5, 15}, kFourByFour), 3u);
  EXPECT_EQ(leaves_spanned(Ranks{}, kFourByFour), 0u);
}

// Jobs on a routed 8-ary 2-tree (8 leaves of 8 hosts, 8 spines, full bisection), routed by ftree.
class RocePlacementCompare : public RoutedFabricTest {
 protected:
  void SetUp() override { ASSERT_NO_FATAL_FAILURE(route(make_kary_ntree(8, 2), "ftree")); }

  Result<Comparison> compare(std::vector<Job> jobs) const {
    CompareOptions o;
    o.patterns.seeds = 1;
    o.patterns.max_shifts = 1;
    o.patterns.all_to_all = false;
    o.collectives = {CollectiveSpec{CollectiveKind::kRingAllReduce, 0}};
    o.jobs = std::move(jobs);
    return compare_schemes(topo, lids, tables, *plan, o);
  }

  /// The switch endpoint e's CA port is cabled to, read from the topology (not from the tracer).
  NodeIndex cabled_switch(const std::vector<std::uint32_t>& host_of_endpoint, std::uint32_t e) const {
    const auto& h = plan->hosts()[host_of_endpoint[e]];
    return topo.node(h.ca).ports[h.port].peer;
  }
};

const CollectiveFigures& scheme(const CollectiveResult& c, const std::string& name) {
  for (const auto& s : c.schemes) {
    if (s.name == name) return s;
  }
  ADD_FAILURE() << name << " missing";
  static const CollectiveFigures kNone;
  return kNone;
}

// fragmented:32,0.5 takes floor(0.5 x 8) = 4 hosts of each leaf: ceil(32 / 4) = 8 leaves, ranks grouped by
// leaf. Its ring leaves each leaf by one flow (the 4th rank to the next leaf's 1st) and enters it by one,
// so no switch cable carries two flows and every scheme is at ideal: 2(r-1) = 62 steps of S/32, one flow
// per host, ideal time 62/32.
// The same 32 hosts ranked across the leaves (rank i on the (i mod 8)-th leaf, its (i div 8)-th host, as a
// host list sorted by slot number would give them): every flow leaves its leaf, 4 per leaf, to 4 distinct
// host positions of the next leaf (leaf 7 to positions 1, 2, 3, 0 of leaf 0). ftree gives each host
// position of a leaf its own spine, so those flows never share a cable: ideal. ECMP hashes 4 flows onto 8
// uplinks (all distinct with probability 8x7x6x5/8^4 = 41 % per leaf, and the downlinks hash too), so
// some cable carries 2..4 flows: relative time in (1, 4], busBw = 1 / relative time.
TEST_F(RocePlacementCompare, FragmentedRingIdealUnderFtreeAboveUnderEcmpWhenRankedAcrossLeaves) {
  const auto leaves = compare_endpoint_leaves(topo, lids, tables);
  const auto host_of_endpoint = compare_endpoints(topo, lids, tables, *plan);
  ASSERT_EQ(leaves.size(), 64u);
  auto spec = parse_placement("fragmented:32,0.5");
  ASSERT_TRUE(spec.ok());
  auto fragmented = place_job(*spec, leaves);
  ASSERT_TRUE(fragmented.ok()) << fragmented.error().message;
  ASSERT_EQ(fragmented->size(), 32u);
  // Grouped by leaf, 4 each, 8 distinct leaves, every leaf's first 4 endpoints in comparison order.
  std::map<NodeIndex, std::vector<std::uint32_t>> by_switch;
  for (std::uint32_t e = 0; e < 64; ++e) by_switch[cabled_switch(host_of_endpoint, e)].push_back(e);
  ASSERT_EQ(by_switch.size(), 8u);
  std::set<NodeIndex> seen;
  for (std::size_t block = 0; block < 8; ++block) {
    const NodeIndex sw = cabled_switch(host_of_endpoint, (*fragmented)[4 * block]);
    EXPECT_TRUE(seen.insert(sw).second) << "leaf used twice";
    const auto& hosts = by_switch[sw];
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ((*fragmented)[4 * block + i], hosts[i]) << block << " " << i;
  }
  std::vector<std::uint32_t> across;
  for (std::size_t i = 0; i < 32; ++i) across.push_back((*fragmented)[4 * (i % 8) + i / 8]);
  auto across_spec = parse_placement("fragmented:32,0.5,across");
  ASSERT_TRUE(across_spec.ok());
  EXPECT_EQ(place_job(*across_spec, leaves).value(), across);

  const auto cmp = compare({Job{"fragmented", *fragmented}, Job{"across", across}});
  ASSERT_TRUE(cmp.ok()) << cmp.error().message;
  ASSERT_EQ(cmp->collectives.size(), 2u);
  const auto& grouped = cmp->collectives[0];
  EXPECT_EQ(grouped.job, "fragmented");
  EXPECT_EQ(grouped.leaves, 8u);
  EXPECT_EQ(grouped.ranks, 32u);
  EXPECT_EQ(grouped.phases, 62u);
  EXPECT_NEAR(grouped.ideal_time, 62.0 / 32, 1e-12);
  for (const char* s : {"ib-static", "ib-adaptive", "roce-ecmp"}) {
    EXPECT_DOUBLE_EQ(scheme(grouped, s).relative_time, 1.0) << s;
  }
  const auto& spread = cmp->collectives[1];
  EXPECT_EQ(spread.job, "across");
  EXPECT_EQ(spread.leaves, 8u);
  EXPECT_NEAR(spread.ideal_time, 62.0 / 32, 1e-12);
  EXPECT_DOUBLE_EQ(scheme(spread, "ib-static").relative_time, 1.0);
  const auto& ecmp = scheme(spread, "roce-ecmp");
  EXPECT_GT(ecmp.relative_time, 1.0 + 1e-9);
  EXPECT_LE(ecmp.relative_time, 4.0 + 1e-9);
  EXPECT_NEAR(ecmp.bus_bandwidth, 1.0 / ecmp.relative_time, 1e-12);
  RecordProperty("ecmp_fragmented_across_ring_relative_time", std::to_string(ecmp.relative_time));
}

// Two jobs at once on the 8-ary 2-tree: job A on host positions 0..3 of every leaf, job B on positions
// 4..7, each ranked across the leaves. Alone or together, ftree's routes give every host position of a
// leaf its own spine and every ring flow goes from position p of one leaf to position p of the next (or,
// closing the ring, to p+1 within the job's four positions): no cable carries two flows, ib-static at
// ideal (62/32 for r = 32, the ideal unchanged by the other job since no host is in both). Together
// every leaf hashes 8 flows onto 8 uplinks under ECMP (all distinct: 8!/8^8 = 0.24 %): above ideal, in
// (1, 8]. Jobs of different sizes or sharing a host are refused.
TEST_F(RocePlacementCompare, JobsAtOnceShareTheFabric) {
  const auto host_of_endpoint = compare_endpoints(topo, lids, tables, *plan);
  std::map<NodeIndex, std::vector<std::uint32_t>> by_switch;
  for (std::uint32_t e = 0; e < 64; ++e) by_switch[cabled_switch(host_of_endpoint, e)].push_back(e);
  ASSERT_EQ(by_switch.size(), 8u);
  Job a{"A", {}}, b{"B", {}};
  for (std::size_t p = 0; p < 4; ++p) {
    for (const auto& [sw, hosts] : by_switch) {
      a.ranks.push_back(hosts[p]);
      b.ranks.push_back(hosts[p + 4]);
    }
  }
  CompareOptions o;
  o.patterns.seeds = 1;
  o.patterns.max_shifts = 1;
  o.patterns.all_to_all = false;
  o.collectives = {CollectiveSpec{CollectiveKind::kRingAllReduce, 0}};
  o.jobs = {a, b};
  o.jobs_at_once = true;
  const auto cmp = compare_schemes(topo, lids, tables, *plan, o);
  ASSERT_TRUE(cmp.ok()) << cmp.error().message;
  ASSERT_EQ(cmp->collectives.size(), 1u);
  const auto& both = cmp->collectives[0];
  EXPECT_EQ(both.job, "A + B");
  EXPECT_EQ(both.ranks, 64u);
  EXPECT_EQ(both.leaves, 8u);
  EXPECT_EQ(both.phases, 62u);
  EXPECT_NEAR(both.ideal_time, 62.0 / 32, 1e-12);
  EXPECT_DOUBLE_EQ(scheme(both, "ib-static").relative_time, 1.0);
  const double ecmp = scheme(both, "roce-ecmp").relative_time;
  EXPECT_GT(ecmp, 1.0 + 1e-9);
  EXPECT_LE(ecmp, 8.0 + 1e-9);
  RecordProperty("ecmp_two_jobs_at_once_ring_relative_time", std::to_string(ecmp));

  o.jobs = {a, Job{"C", {a.ranks[0], b.ranks[0], b.ranks[1]}}};
  const auto shared = compare_schemes(topo, lids, tables, *plan, o);
  ASSERT_FALSE(shared.ok());
  EXPECT_NE(shared.error().message.find("their phases differ"), std::string::npos) << shared.error().message;
  Job d = b;
  d.ranks[5] = a.ranks[0];
  o.jobs = {a, d};
  const auto overlap = compare_schemes(topo, lids, tables, *plan, o);
  ASSERT_FALSE(overlap.ok());
  EXPECT_NE(overlap.error().message.find("is in job A and in job B"), std::string::npos) << overlap.error().message;
}

// Without jobs the collectives run over the whole fabric as job "all"; a job naming an endpoint the
// fabric does not have is refused with the job's name.
TEST_F(RocePlacementCompare, DefaultJobAndBadRank) {
  const auto all = compare({});
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all->collectives.size(), 1u);
  EXPECT_EQ(all->collectives[0].job, "all");
  EXPECT_EQ(all->collectives[0].ranks, 64u);
  EXPECT_EQ(all->collectives[0].leaves, 8u);
  const auto bad = compare({Job{"j.txt", {0, 64}}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("job j.txt: rank 1 names endpoint 64"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace smd::roce::roce_placement_test
