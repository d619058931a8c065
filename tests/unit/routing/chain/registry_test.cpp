// Engine registry and the fallback chain.
#include "routing/chain/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "routing/engines/ftree/ftree_options.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/routing/hand_node.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::registry_test {
namespace {

// GUIDs counted from 0x9000 in call order.
Node make_node(NodeType type, unsigned ports) {
  static Guid next = 0x9000;
  return test::make_node(type, ports, ++next);
}

/// One switch with two hosts: LIDs h0 = 1, h1 = 2, switch = 3.
struct Tiny {
  Topology t;
  LidMap lids;
  NodeIndex sw, h0, h1;
  Tiny() {
    sw = t.add_node(make_node(NodeType::kSwitch, 4)).value();
    h0 = t.add_node(make_node(NodeType::kCa, 1)).value();
    h1 = t.add_node(make_node(NodeType::kCa, 1)).value();
    EXPECT_TRUE(t.connect(sw, 1, h0, 1).ok());
    EXPECT_TRUE(t.connect(sw, 2, h1, 1).ok());
    EXPECT_TRUE(lids.assign(h0, 1, 1, 0).ok());
    EXPECT_TRUE(lids.assign(h1, 1, 2, 0).ok());
    EXPECT_TRUE(lids.assign(sw, 0, 3, 0).ok());
  }
};

TEST(Registry, NamesAreSortedUniqueAndIncludeMinhop) {
  const auto names = engine_names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  EXPECT_NE(std::find(names.begin(), names.end(), "minhop"), names.end());
}

TEST(Registry, EveryNameBuildsAnEngineReportingThatName) {
  for (const auto& n : engine_names()) {
    auto e = make_engine(n, {});
    ASSERT_TRUE(e.ok()) << n;
    EXPECT_EQ((*e)->name(), n);
  }
}

TEST(Registry, UnknownNameListsTheKnownOnes) {
  auto e = make_engine("chaos", {});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(e.error().message.find("\"chaos\""), std::string::npos) << e.error().message;
  for (const auto& n : engine_names()) EXPECT_NE(e.error().message.find(n), std::string::npos) << e.error().message;
}

TEST(Chain, FirstWorkingEngineWinsAndEarlierFailuresAreRecorded) {
  Tiny f;
  auto r = route_with_chain({"no-such-engine", "minhop"}, {}, f.t, f.lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->tables.engine, "minhop");
  ASSERT_EQ(r->declined.size(), 1u);
  EXPECT_EQ(r->declined[0].engine, "no-such-engine");
  EXPECT_EQ(r->declined[0].error.code, ErrorCode::kInvalidInput);
  EXPECT_EQ(r->tables.lft[f.sw].get(1), 1);
  EXPECT_EQ(r->tables.lft[f.sw].get(2), 2);
  EXPECT_EQ(r->tables.lft[f.sw].get(3), 0);
}

TEST(Chain, EmptyChainIsInvalidInput) {
  Tiny f;
  auto r = route_with_chain({}, {}, f.t, f.lids);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
}

TEST(Chain, AllFailingReportsEveryAttempt) {
  Tiny f;
  auto r = route_with_chain({"a", "minhop"}, {}, f.t, LidMap{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("[a: invalid-input"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("[minhop: invalid-input"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
}

/// A 3-level 4-ary tree with one more cable between two top switches (their free ports 5): not a fat tree,
/// and updn's switch-LID routes between top switches close a cycle that CA-injected traffic avoids.
struct TreeWithSpineCable {
  Topology t;
  LidMap lids;
  TreeWithSpineCable() {
    auto tree = make_kary_ntree(4, 3);
    EXPECT_TRUE(tree.ok());
    t = std::move(*tree);
    std::vector<NodeIndex> tops;
    for (NodeIndex s : t.switches()) {
      if (t.node(s).description.find("L2") != std::string::npos) tops.push_back(s);
    }
    EXPECT_GE(tops.size(), 2u);
    EXPECT_TRUE(t.connect(tops[0], 5, tops[1], 5).ok());
    lids = testing::assign_test_lids(t);
  }
};

TEST(Chain, AnEngineWhoseCycleOnlySwitchRoutesCloseIsKeptOverOneWithoutPromise) {
  TreeWithSpineCable f;
  auto r = route_with_chain({"ftree", "updn", "minhop"}, {}, f.t, f.lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->tables.engine, "updn");
  EXPECT_FALSE(r->tables.deadlock_free);
  EXPECT_NE(r->warning.find("engine updn's tables are used"), std::string::npos) << r->warning;
  ASSERT_EQ(r->declined.size(), 3u);
  EXPECT_EQ(r->declined[1].error.code, ErrorCode::kVerifyFailed);
  EXPECT_NE(r->declined[2].error.message.find("not deadlock-free either"), std::string::npos);
  // Checked by tracing the tables here: every route delivers, CA-injected traffic has an acyclic
  // dependency graph, the graph of all routes has a cycle.
  EXPECT_EQ(testing::check_all_reach(f.t, f.lids, r->tables), "");
  EXPECT_TRUE(testing::cdg_acyclic(f.t, f.lids, r->tables, /*ca_sources_only=*/true));
  EXPECT_FALSE(testing::cdg_acyclic(f.t, f.lids, r->tables));
  // What the chain took before, minhop, is no more deadlock-free and loads the busiest cable more under
  // shift permutations (4 flows against updn's 1 when this was written).
  auto m = route_with_chain({"minhop"}, {}, f.t, f.lids);
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->warning.empty());
  EXPECT_FALSE(testing::cdg_acyclic(f.t, f.lids, m->tables));
  EXPECT_LT(testing::max_shift_load(f.t, f.lids, r->tables, r->tables.ca_order),
            testing::max_shift_load(f.t, f.lids, m->tables, r->tables.ca_order));
}

TEST(Chain, ALaterEngineDeadlockFreeForAllRoutesStillWins) {
  // dfsssp layers every route, switch LIDs included: it is deadlock-free where updn is not.
  TreeWithSpineCable f;
  RoutingOptions vls;
  vls.data_vls = 4;  // qos on with 4 data VLs (port VLCaps unknown: not a limit)
  auto r = route_with_chain({"updn", "dfsssp"}, vls, f.t, f.lids);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->tables.engine, "dfsssp");
  EXPECT_TRUE(r->warning.empty());
  ASSERT_EQ(r->declined.size(), 1u);
  EXPECT_EQ(r->declined[0].engine, "updn");
  EXPECT_TRUE(r->tables.deadlock_free);
}

}  // namespace
}  // namespace smd::registry_test

namespace smd::registry_test {
namespace {

TEST(Registry, HandingFtreeItsLastRootsKeepsTheNodeListsAndReverseHops) {
  // The sweep's retry with the last fat tree's tops must not drop the site's CN/IO lists.
  FtreeOptions ftree;
  ftree.cn_guids = {0x10101, 0x10102};
  ftree.io_guids = {0x10110};
  ftree.max_reverse_hops = 2;
  RoutingOptions options;
  options.engines.set(ftree);
  const RoutingOptions rooted = with_ftree_roots(options, {0x300, 0x301});
  const FtreeOptions& got = rooted.engines.get<FtreeOptions>();
  EXPECT_EQ(got.roots, (std::vector<Guid>{0x300, 0x301}));
  EXPECT_EQ(got.cn_guids, ftree.cn_guids);
  EXPECT_EQ(got.io_guids, ftree.io_guids);
  EXPECT_EQ(got.max_reverse_hops, 2u);
  EXPECT_TRUE(ftree_roots_configured(rooted));
  EXPECT_FALSE(ftree_roots_configured(options));
}

}  // namespace
}  // namespace smd::registry_test
