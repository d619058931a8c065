#include "routing/lids/lid_assign.h"

#include <gtest/gtest.h>

#include <set>

#include "routing/fabric_gen/fabric_gen.h"

namespace smd::lid_assign_test {
namespace {

// Every endport must own 2^LMC aligned LIDs (switch port 0: one LID), no LID shared.
void expect_complete(const Topology& t, const LidMap& m, unsigned lmc) {
  std::set<Lid> used;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      const bool endport = node.is_switch() ? p == 0 : node.ports[p].connected();
      if (!endport) {
        EXPECT_EQ(m.base_lid(n, p), 0);
        continue;
      }
      const Lid base = m.base_lid(n, p);
      const unsigned count = node.is_switch() ? 1 : 1u << lmc;
      ASSERT_NE(base, 0) << node.description;
      EXPECT_EQ(base % count, 0u) << node.description;
      for (unsigned l = base; l < base + count; ++l) {
        EXPECT_TRUE(used.insert(static_cast<Lid>(l)).second) << "LID " << l << " reused";
        auto o = m.owner(static_cast<Lid>(l));
        ASSERT_TRUE(o.has_value());
        EXPECT_EQ(o->node, n);
        EXPECT_EQ(o->port, p);
      }
    }
  }
}

TEST(LidAssign, EveryEndportGetsUniqueAlignedLids) {
  auto t = make_kary_ntree(4, 2);
  ASSERT_TRUE(t.ok());
  for (unsigned lmc : {0u, 1u, 3u}) {
    auto m = assign_lids(*t, {}, LidAssignOptions{lmc, true});
    ASSERT_TRUE(m.ok()) << m.error().message;
    expect_complete(*t, *m, lmc);
  }
}

TEST(LidAssign, RememberedLidsWinOverPortLidsAndLowestFree) {
  auto t = make_leaf_spine(LeafSpineSpec{2, 1, 2, 1});
  ASSERT_TRUE(t.ok());
  Topology& topo = t.value();
  const NodeIndex host = topo.cas()[1];
  const NodeIndex leaf = topo.switches()[0];
  topo.mutable_node(host).ports[1].lid = 40;  // what the port holds
  Guid2Lid remembered;
  remembered[topo.node(host).ports[1].guid] = LidRange{77, 77};
  remembered[topo.node(leaf).guid] = LidRange{9, 9};
  auto m = assign_lids(topo, remembered, LidAssignOptions{0, true});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->base_lid(host, 1), 77);
  EXPECT_EQ(m->base_lid(leaf, 0), 9);
  expect_complete(topo, *m, 0);
}

TEST(LidAssign, KeepsAValidPortLidAndDropsAClashingOne) {
  auto t = make_single_switch(3);
  ASSERT_TRUE(t.ok());
  Topology& topo = t.value();
  const auto& cas = topo.cas();
  topo.mutable_node(cas[0]).ports[1].lid = 5;
  topo.mutable_node(cas[1]).ports[1].lid = 5;  // clash: the first keeps it
  auto m = assign_lids(topo, {}, LidAssignOptions{0, true});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->base_lid(cas[0], 1), 5);
  EXPECT_NE(m->base_lid(cas[1], 1), 5);
  expect_complete(topo, *m, 0);
}

TEST(LidAssign, MisalignedRememberedRangeIsReassigned) {
  auto t = make_single_switch(2);
  ASSERT_TRUE(t.ok());
  Guid2Lid remembered;
  remembered[t->node(t->cas()[0]).ports[1].guid] = LidRange{6, 9};  // 4 LIDs, not aligned to 4
  auto m = assign_lids(*t, remembered, LidAssignOptions{2, true});
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->base_lid(t->cas()[0], 1) % 4, 0);
  expect_complete(*t, *m, 2);
}

// Every remembered range that is not kept is named with why, so the operator learns that a port moved.
TEST(LidAssign, SaysWhichRememberedRangesWereNotKept) {
  auto t = make_single_switch(3);
  ASSERT_TRUE(t.ok());
  t->mutable_node(t->switches()[0]).lft_cap = 0x40;  // LIDs 1..0x3f
  const auto& cas = t->cas();
  const Guid a = t->node(cas[0]).ports[1].guid, b = t->node(cas[1]).ports[1].guid, c = t->node(cas[2]).ports[1].guid;
  Guid2Lid remembered;
  remembered[a] = LidRange{0x10, 0x11};  // 2 LIDs, LMC 0
  remembered[b] = LidRange{0x78, 0x78};  // above the cap
  remembered[c] = LidRange{0x5, 0x5};    // kept
  std::vector<std::string> passed_over;
  auto m = assign_lids(*t, remembered, LidAssignOptions{0, true}, &passed_over);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->base_lid(cas[2], 1), 5);
  EXPECT_EQ(passed_over,
            (std::vector<std::string>{
                format_guid(a) + " 0x0010-0x0011: 2 LIDs but LMC 0 gives the port 1",
                format_guid(b) + " 0x0078-0x0078: not an aligned range below LID 64 (the smallest LinearFDBCap of "
                                 "the fabric's switches)"}));
  expect_complete(*t, *m, 0);
}

TEST(LidAssign, RefusesWhenLinearFdbCapIsTooSmall) {
  auto t = make_single_switch(10);
  ASSERT_TRUE(t.ok());
  t->mutable_node(t->switches()[0]).lft_cap = 8;  // LIDs 1..7 only: 11 endports do not fit
  auto m = assign_lids(*t, {}, LidAssignOptions{0, true});
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(m.error().message.find("LinearFDBCap"), std::string::npos);
}

TEST(LidAssign, Guid2LidViewRoundTrips) {
  auto t = make_kary_ntree(2, 2);
  ASSERT_TRUE(t.ok());
  auto m = assign_lids(*t, {}, LidAssignOptions{1, true});
  ASSERT_TRUE(m.ok());
  const Guid2Lid view = to_guid2lid(*t, *m);
  auto again = assign_lids(*t, view, LidAssignOptions{1, false});
  ASSERT_TRUE(again.ok());
  for (NodeIndex n = 0; n < t->size(); ++n) {
    for (PortNum p = 0; p <= t->node(n).num_ports; ++p) EXPECT_EQ(again->base_lid(n, p), m->base_lid(n, p));
  }
}

}  // namespace
}  // namespace smd::lid_assign_test

namespace smd::lid_assign_test {
namespace {

// Two single-switch fabrics for the reservation tests: host-0..host-3 on one switch.
Topology one_switch(unsigned hosts) {
  auto t = make_single_switch(hosts);
  EXPECT_TRUE(t.ok());
  return std::move(t.value());
}

TEST(LidAssign, LidsRememberedForAbsentPortsAreNotHandedOut) {
  const Topology t = one_switch(2);  // switch port 0 and two hosts: three LIDs
  Guid2Lid remembered;
  remembered[0xdead0001] = {1, 1};  // ports that are away (a switch in service) keep LIDs 1 and 2
  remembered[0xdead0002] = {2, 2};
  auto lids = assign_lids(t, remembered, LidAssignOptions{});
  ASSERT_TRUE(lids.ok()) << lids.error().message;
  std::set<Lid> used;
  for (const auto& e : lids->entries()) used.insert(e.base);
  EXPECT_EQ(used, (std::set<Lid>{3, 4, 5}));
}

TEST(LidAssign, ReservedLidsAreTakenWhenNothingElseIsLeft) {
  Topology t = one_switch(2);
  t.mutable_node(t.switches().front()).lft_cap = 4;  // LIDs 1..3 only
  Guid2Lid remembered;
  remembered[0xdead0001] = {2, 2};
  auto lids = assign_lids(t, remembered, LidAssignOptions{});
  ASSERT_TRUE(lids.ok()) << lids.error().message;
  std::set<Lid> used;
  for (const auto& e : lids->entries()) used.insert(e.base);
  EXPECT_EQ(used, (std::set<Lid>{1, 2, 3}));
}

TEST(LidAssign, MergeNeverLeavesTwoGuidsOnOneLid) {
  Guid2Lid remembered;
  remembered[0xa] = {4, 7};    // stale, overlaps the new grant of 0xc
  remembered[0xb] = {8, 8};    // stale, no overlap: kept for when 0xb comes back
  remembered[0xc] = {12, 12};  // 0xc moves
  Guid2Lid granted;
  granted[0xc] = {6, 6};
  granted[0xd] = {1, 1};
  merge_guid2lid(remembered, granted);
  EXPECT_EQ(remembered.size(), 3u);
  EXPECT_EQ(remembered.count(0xa), 0u);
  EXPECT_EQ(remembered.at(0xb).min, 8);
  EXPECT_EQ(remembered.at(0xc).min, 6);
  EXPECT_EQ(remembered.at(0xd).min, 1);
}

}  // namespace
}  // namespace smd::lid_assign_test
