// plan_mft: which MFT (block, position) Sets and which MulticastFDBTop Set make a switch hold its
// multicast masks, given what it acknowledged before. Expectations follow from IBA 14.2.5.11 (32 MLIDs of
// 16 ports per block, bit j of the mask = port 16p + j, modifier = position << 28 | block) and 14.2.5.4,
// on the hand-built fabric of plan_fixture.h (one 4-port switch: position 0 only); no transport involved.
#include "smd/program/mft_plan.h"

#include <gtest/gtest.h>

#include "mad/codec/mft_block.h"
#include "tests/unit/smd/plan_fixture.h"

namespace smd::mft_plan_test {
namespace {

using test::kPlanSwitchGuid;

// The fixture's switch with MulticastFDBCap `cap`, MulticastFDBTop `top` as found, and CapabilityMask
// bit 30 on port 0 when `top_supported`.
SweepFabric mcast_fabric(std::uint16_t cap = 1024, bool top_supported = false, Lid top = 0) {
  ObservedFabric f = test::plan_fabric();
  mad::SwitchInfo& si = *f.nodes[0].switch_info;
  si.multicast_fdb_cap = cap;
  si.multicast_fdb_top = top;
  si.linear_fdb_top = 70;
  si.encode(si.raw);
  si = mad::SwitchInfo::decode(si.raw);
  if (top_supported) {
    mad::PortInfo& pi = *f.nodes[0].ports[0].port_info;
    pi.capability_mask |= 0x40000000u;
    pi.encode(pi.raw);
    pi = mad::PortInfo::decode(pi.raw);
  }
  return SweepFabric(std::move(f));
}

// MLID 0xC001 out of ports 1 and 3 (mask 0x000A), MLID 0xC021 (block 1, entry 1) out of port 2 (0x0004).
McastTables two_groups() {
  McastTables t;
  McastPortMask a, b;
  a.set(1);
  a.set(3);
  b.set(2);
  t.trees[0xC001].switches = {{kPlanSwitchGuid, a}};
  t.trees[0xC021].switches = {{kPlanSwitchGuid, b}};
  return t;
}

mad::MftBlock block_with(unsigned index, std::uint16_t mask) {
  mad::MftBlock b;
  b.masks[index] = mask;
  return b;
}

AppliedMft acknowledged_two_groups() {
  AppliedMft applied;
  applied.record_block(kPlanSwitchGuid, 0, 0, block_with(1, 0x000A));
  applied.record_block(kPlanSwitchGuid, 1, 0, block_with(1, 0x0004));
  return applied;
}

TEST(MftPlan, FirstTimeWritesEveryBlockUpToTheHighestInUse) {
  const MftPlan plan = plan_mft(mcast_fabric(), two_groups(), AppliedMft{});
  ASSERT_EQ(plan.writes.size(), 2u);
  EXPECT_EQ(plan.switches, 1u);
  EXPECT_EQ(plan.top_updates, 0u) << "the switch does not honour MulticastFDBTop";
  EXPECT_TRUE(plan.problems.empty());
  for (unsigned b = 0; b < 2; ++b) {
    const TableWrite& w = plan.writes[b];
    EXPECT_EQ(w.request.attr_id, mad::attr::kMulticastForwardingTable);
    EXPECT_EQ(w.request.method, mad::Method::kSet);
    EXPECT_EQ(w.request.attr_mod, b) << "position 0, block b";
    EXPECT_EQ(w.echo, EchoRule::kPayload);
    EXPECT_EQ(w.guid, kPlanSwitchGuid);
  }
  // Entry 1 of each block is bytes 2-3, big-endian.
  EXPECT_EQ(plan.writes[0].request.data[2], 0x00);
  EXPECT_EQ(plan.writes[0].request.data[3], 0x0A);
  EXPECT_EQ(plan.writes[1].request.data[3], 0x04);
  for (unsigned i = 4; i < 64; ++i) EXPECT_EQ(plan.writes[0].request.data[i], 0) << i;
  EXPECT_EQ(describe_write(plan.writes[1]), "MulticastForwardingTable Set block 1 position 0");
}

TEST(MftPlan, NothingWhenTheSwitchAcknowledgedEverything) {
  const MftPlan plan = plan_mft(mcast_fabric(), two_groups(), acknowledged_two_groups());
  EXPECT_TRUE(plan.writes.empty());
  EXPECT_EQ(plan.blocks_skipped, 2u);
}

TEST(MftPlan, OnlyTheBlockThatDiffersIsWritten) {
  McastTables want = two_groups();
  want.trees[0xC021].switches[0].second.set(4);  // 0x0014
  const MftPlan plan = plan_mft(mcast_fabric(), want, acknowledged_two_groups());
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].request.attr_mod, 1u);
  EXPECT_EQ(plan.writes[0].request.data[3], 0x14);
  EXPECT_EQ(plan.blocks_skipped, 1u);
}

TEST(MftPlan, AGroupThatWentIsClearedFromTheSwitch) {
  McastTables want = two_groups();
  want.trees.erase(0xC021);
  const MftPlan plan = plan_mft(mcast_fabric(), want, acknowledged_two_groups());
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].request.attr_mod, 1u);
  EXPECT_EQ(plan.writes[0].request.data, mad::SmpData{}) << "block 1 written as all zero";
}

TEST(MftPlan, ABlockNotEchoedBeforeIsWrittenAgain) {
  AppliedMft applied = acknowledged_two_groups();
  applied.forget_block(kPlanSwitchGuid, 0, 0);
  const MftPlan plan = plan_mft(mcast_fabric(), two_groups(), applied);
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].request.attr_mod, 0u);
}

TEST(MftPlan, MlidsAtOrAboveMulticastFdbCapAreRefusedByName) {
  const MftPlan plan = plan_mft(mcast_fabric(/*cap=*/32), two_groups(), AppliedMft{});
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].request.attr_mod, 0u);
  ASSERT_EQ(plan.problems.size(), 1u);
  EXPECT_EQ(plan.problems[0].code, ProblemCode::kCapacity);
  EXPECT_EQ(plan.problems[0].guid, kPlanSwitchGuid);
  EXPECT_EQ(plan.problems[0].reason, "MLID 0xc021 exceeds MulticastFDBCap 32; MLIDs from 0xc020 up not written");
}

TEST(MftPlan, NoMulticastFdbCapNoWrites) {
  const MftPlan plan = plan_mft(mcast_fabric(/*cap=*/0), two_groups(), AppliedMft{});
  EXPECT_TRUE(plan.writes.empty());
  ASSERT_EQ(plan.problems.size(), 1u);
  EXPECT_EQ(plan.switches, 0u);
}

TEST(MftPlan, MulticastFdbTopIsTheLastMlidOfTheHighestBlockWhereSupported) {
  const MftPlan plan = plan_mft(mcast_fabric(1024, /*top_supported=*/true, 0), two_groups(), AppliedMft{});
  ASSERT_EQ(plan.writes.size(), 3u);
  EXPECT_EQ(plan.top_updates, 1u);
  const TableWrite& top = plan.writes.back();
  EXPECT_EQ(top.request.attr_id, mad::attr::kSwitchInfo);
  EXPECT_EQ(top.echo, EchoRule::kMulticastFdbTop);
  const auto si = mad::SwitchInfo::decode(top.request.data);
  EXPECT_EQ(si.multicast_fdb_top, 0xC03F) << "0xC000 + 32 * (1 + 1) - 1";
  EXPECT_EQ(si.linear_fdb_top, 70) << "read-modify-write keeps LinearFDBTop";
  EXPECT_FALSE(si.port_state_change);
  EXPECT_EQ(top.request.data[40], 0xa5) << "and the reserved byte the switch reported";
  EXPECT_EQ(describe_write(top), "SwitchInfo Set MulticastFDBTop");
  EXPECT_EQ(mft_top_for(-1), 0xBFFF);
  EXPECT_EQ(mft_top_for(0), 0xC01F);
}

TEST(MftPlan, AnEmptyTableGetsTop0xBfffAndATopAlreadyHeldIsBelieved) {
  const MftPlan empty = plan_mft(mcast_fabric(1024, true, 0), McastTables{}, AppliedMft{});
  ASSERT_EQ(empty.writes.size(), 1u);
  EXPECT_EQ(mad::SwitchInfo::decode(empty.writes[0].request.data).multicast_fdb_top, 0xBFFF);
  const MftPlan held = plan_mft(mcast_fabric(1024, true, 0xC03F), two_groups(), acknowledged_two_groups());
  EXPECT_TRUE(held.writes.empty());
  ASSERT_EQ(held.tops_confirmed.size(), 1u);
  EXPECT_EQ(held.tops_confirmed[0], std::make_pair(kPlanSwitchGuid, Lid{0xC03F}));
}

TEST(MftPlan, ASwitchReportingAnotherTopThanItAcknowledgedIsWrittenWhole) {
  AppliedMft applied = acknowledged_two_groups();
  applied.record_top(kPlanSwitchGuid, 0xC03F);
  const MftPlan plan = plan_mft(mcast_fabric(1024, true, /*top=*/0), two_groups(), applied);
  EXPECT_EQ(plan.stale, std::vector<Guid>{kPlanSwitchGuid});
  EXPECT_EQ(plan.writes.size(), 3u);
  EXPECT_EQ(plan.blocks_skipped, 0u);
}

}  // namespace
}  // namespace smd::mft_plan_test
