// plan_lft: which LFT writes make a switch hold its table, given what it acknowledged before. The
// expectations follow from IBA 14.2.5.10 (64 one-byte entries per block, modifier = block number) and
// 14.2.5.4 (LinearFDBTop in SwitchInfo), on a hand-built fabric; no transport is involved.
#include "smd/program/lft_plan.h"

#include <gtest/gtest.h>

#include "tests/unit/smd/plan_fixture.h"

namespace smd::lft_plan_test {
namespace {

using test::kPlanSwitchGuid;

// LIDs 1..70: two blocks; LID 70 lives in block 1 at offset 6.
RoutingTables tables_to(Lid top, PortNum port) {
  RoutingTables t;
  t.lft.resize(2);
  t.lft[0] = Lft(top);
  for (Lid lid = 1; lid <= top; ++lid) t.lft[0].set(lid, port);
  return t;
}

// What the switch acknowledged after holding `want` (70 LIDs, two blocks) once.
AppliedTables acknowledged(const RoutingTables& want) {
  AppliedTables applied;
  applied.record_lft_top(kPlanSwitchGuid, want.lft[0].top());
  for (unsigned b = 0; b < want.lft[0].num_blocks(); ++b)
    applied.record_lft_block(kPlanSwitchGuid, b, want.lft[0].block(b));
  return applied;
}

TEST(LftPlan, FirstTimeWritesTopThenEveryBlock) {
  const SweepFabric fabric(test::plan_fabric(/*cap=*/1024, /*top=*/0));
  const RoutingTables want = tables_to(70, 1);
  const AppliedTables nothing;
  const LftPlan plan = plan_lft(fabric, want, nothing);
  ASSERT_EQ(plan.writes.size(), 3u);
  EXPECT_EQ(plan.top_updates, 1u);
  EXPECT_EQ(plan.switches, 1u);
  EXPECT_TRUE(plan.problems.empty());
  EXPECT_TRUE(plan.tops_confirmed.empty());
  const TableWrite& top = plan.writes[0];
  EXPECT_EQ(top.request.attr_id, mad::attr::kSwitchInfo);
  EXPECT_EQ(top.request.method, mad::Method::kSet);
  EXPECT_EQ(top.echo, EchoRule::kLinearFdbTop);
  EXPECT_EQ(top.guid, kPlanSwitchGuid);
  const auto si = mad::SwitchInfo::decode(top.request.data);
  EXPECT_EQ(si.linear_fdb_top, 70);
  EXPECT_EQ(si.linear_fdb_cap, 1024);
  EXPECT_EQ(top.request.data[40], 0xa5) << "read-modify-write keeps the reserved byte the switch reported";
  for (unsigned b = 0; b < 2; ++b) {
    const TableWrite& w = plan.writes[1 + b];
    EXPECT_EQ(w.request.attr_id, mad::attr::kLinearForwardingTable);
    EXPECT_EQ(w.request.attr_mod, b);
    EXPECT_EQ(w.echo, EchoRule::kPayload);
  }
  // Block 0: LID 0 has no route (0xFF), LIDs 1..63 go out of port 1. Block 1: LIDs 64..70, then none.
  EXPECT_EQ(plan.writes[1].request.data[0], 0xFF);
  EXPECT_EQ(plan.writes[1].request.data[1], 1);
  EXPECT_EQ(plan.writes[1].request.data[63], 1);
  EXPECT_EQ(plan.writes[2].request.data[6], 1);
  EXPECT_EQ(plan.writes[2].request.data[7], 0xFF);
}

TEST(LftPlan, NothingWhenTheSwitchAcknowledgedEverything) {
  const SweepFabric fabric(test::plan_fabric(1024, 70));
  const RoutingTables want = tables_to(70, 1);
  AppliedTables applied = acknowledged(want);
  const LftPlan plan = plan_lft(fabric, want, applied);
  EXPECT_TRUE(plan.writes.empty());
  EXPECT_EQ(plan.blocks_skipped, 2u);
  EXPECT_TRUE(applied.holds(kPlanSwitchGuid, want.lft[0]));
}

TEST(LftPlan, OnlyTheBlockThatDiffersIsWritten) {
  const SweepFabric fabric(test::plan_fabric(1024, 70));
  RoutingTables want = tables_to(70, 1);
  AppliedTables applied = acknowledged(want);
  want.lft[0].set(65, 2);  // block 1, offset 1
  const LftPlan plan = plan_lft(fabric, want, applied);
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].request.attr_mod, 1u);
  EXPECT_EQ(plan.writes[0].request.data[1], 2);
  EXPECT_EQ(plan.blocks_skipped, 1u);
}

TEST(LftPlan, ABlockNotEchoedBeforeIsWrittenAgain) {
  const SweepFabric fabric(test::plan_fabric(1024, 70));
  const RoutingTables want = tables_to(70, 1);
  AppliedTables applied = acknowledged(want);
  applied.forget_lft_block(kPlanSwitchGuid, 0);
  const LftPlan plan = plan_lft(fabric, want, applied);
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].request.attr_mod, 0u);
  EXPECT_FALSE(applied.holds(kPlanSwitchGuid, want.lft[0]));
}

TEST(LftPlan, ATopTheSwitchAlreadyReportsIsBelievedWithoutAWrite) {
  const SweepFabric fabric(test::plan_fabric(1024, /*top=*/70));
  const LftPlan plan = plan_lft(fabric, tables_to(70, 1), AppliedTables{});
  EXPECT_EQ(plan.top_updates, 0u);
  ASSERT_EQ(plan.tops_confirmed.size(), 1u);
  EXPECT_EQ(plan.tops_confirmed[0], std::make_pair(kPlanSwitchGuid, Lid{70}));
  EXPECT_EQ(plan.writes.size(), 2u);  // the blocks were never acknowledged
}

TEST(LftPlan, ASwitchReportingAnotherTopThanItAcknowledgedIsWrittenWhole) {
  // It acknowledged LinearFDBTop 70 and every block, but now reports 0: it was reset (a reboot, another
  // SM), so none of what it acknowledged is believed.
  const SweepFabric fabric(test::plan_fabric(1024, /*top=*/0));
  const RoutingTables want = tables_to(70, 1);
  AppliedTables applied = acknowledged(want);
  const LftPlan plan = plan_lft(fabric, want, applied);
  EXPECT_EQ(plan.stale, std::vector<Guid>{kPlanSwitchGuid});
  EXPECT_EQ(plan.top_updates, 1u);
  EXPECT_EQ(plan.writes.size(), 3u);
  EXPECT_EQ(plan.blocks_skipped, 0u);
}

TEST(LftPlan, ATableAboveLinearFdbCapIsRefusedWhole) {
  const SweepFabric fabric(test::plan_fabric(/*cap=*/64, 0));
  const LftPlan plan = plan_lft(fabric, tables_to(70, 1), AppliedTables{});
  EXPECT_TRUE(plan.writes.empty());
  ASSERT_EQ(plan.problems.size(), 1u);
  EXPECT_EQ(plan.problems[0].code, ProblemCode::kCapacity);
  EXPECT_EQ(plan.problems[0].guid, kPlanSwitchGuid);
  EXPECT_EQ(plan.problems[0].reason, "table top 70 exceeds LinearFDBCap 64; not written");
}

TEST(LftPlan, AnAcknowledgedSwitchInfoIsTheBaseOfTheTopSet) {
  SweepFabric fabric(test::plan_fabric(1024, 0));
  mad::SwitchInfo acked = *fabric.switch_info(0);
  acked.port_state_change = true;
  acked.encode(acked.raw);
  fabric.acknowledge_switch(0, mad::SwitchInfo::decode(acked.raw));
  const LftPlan plan = plan_lft(fabric, tables_to(70, 1), AppliedTables{});
  ASSERT_FALSE(plan.writes.empty());
  EXPECT_TRUE(mad::SwitchInfo::decode(plan.writes[0].request.data).port_state_change);
}

}  // namespace
}  // namespace smd::lft_plan_test
