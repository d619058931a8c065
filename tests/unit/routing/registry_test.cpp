// Engine registry and the fallback chain.
#include "routing/chain/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "hand_node.h"

namespace smd {
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
  auto e = make_engine("dor", {});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(e.error().message.find("\"dor\""), std::string::npos) << e.error().message;
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

}  // namespace
}  // namespace smd
