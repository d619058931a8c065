// P_Key plans on the hand-built fabric of plan_fixture.h (switch 0 port 1 <-> CA 1 port 1): which
// P_KeyTable and PortInfo Sets make the ports hold a partition plan, given what they acknowledged.
// Expected modifiers and payload bytes are worked out by hand from IBA 14.2.5.7 (block | port<<16).
#include "smd/program/pkey_plan.h"

#include <gtest/gtest.h>

#include "mad/codec/port_info.h"
#include "tests/unit/smd/plan_fixture.h"
#include "smd/program/port_plan.h"

namespace smd::pkey_plan_test {
namespace {

// The CA port holds 0xffff, 0x8010 (64 entries); switch port 1 the same copy, enforcement both ways.
PartitionPlan two_ports() {
  PartitionPlan p;
  PortPartitions ca;
  ca.node = 1;
  ca.port = 1;
  ca.table.assign(64, 0);
  ca.table[0] = 0xffff;
  ca.table[1] = 0x8010;
  p.ports[{test::kPlanCaGuid, 1}] = ca;
  PortPartitions sw = ca;
  sw.node = 0;
  sw.endport = false;
  sw.enforce_in = sw.enforce_out = true;
  p.ports[{test::kPlanSwitchGuid, 1}] = sw;
  return p;
}

TEST(PKeyPlan, FirstContactWritesEveryBlockWithTheRightModifier) {
  const SweepFabric fabric(test::plan_fabric());
  const PKeyPlan plan = plan_pkey_tables(fabric, two_ports(), AppliedPKeys{});
  ASSERT_EQ(plan.writes.size(), 4u);
  EXPECT_EQ(plan.ports, 2u);
  EXPECT_EQ(plan.blocks_skipped, 0u);
  // Map order: the CA (GUID 0x100000) before the switch (0x200000).
  const TableWrite& ca0 = plan.writes[0];
  EXPECT_EQ(ca0.request.attr_id, 0x0016);
  EXPECT_EQ(ca0.request.attr_mod, 0u) << "a CA answers for the port the SMP entered by";
  EXPECT_EQ(ca0.request.path, mad::DrPath({1}));
  EXPECT_EQ(ca0.echo, EchoRule::kPayload);
  EXPECT_EQ(ca0.request.data[0], 0xff);
  EXPECT_EQ(ca0.request.data[1], 0xff);
  EXPECT_EQ(ca0.request.data[2], 0x80);
  EXPECT_EQ(ca0.request.data[3], 0x10);
  EXPECT_EQ(ca0.request.data[4], 0x00);
  EXPECT_EQ(plan.writes[1].request.attr_mod, 1u) << "block 1 is written too: it may hold a stale entry";
  EXPECT_EQ(plan.writes[2].request.attr_mod, 0x00010000u) << "switch port 1, block 0";
  EXPECT_EQ(plan.writes[3].request.attr_mod, 0x00010001u);
  EXPECT_EQ(plan.writes[2].guid, test::kPlanSwitchGuid);
}

TEST(PKeyPlan, OnlyBlocksThatDifferFromWhatWasAcknowledgedAreWritten) {
  const SweepFabric fabric(test::plan_fabric());
  const PartitionPlan want = two_ports();
  AppliedPKeys applied;
  for (const auto& [key, pp] : want.ports) {
    const auto blocks = pkey_blocks(pp.table);
    for (unsigned b = 0; b < blocks.size(); ++b) applied.record_block(key.node_guid, key.port, b, blocks[b]);
  }
  EXPECT_TRUE(plan_pkey_tables(fabric, want, applied).writes.empty());
  EXPECT_EQ(plan_pkey_tables(fabric, want, applied).blocks_skipped, 4u);

  PartitionPlan changed = want;
  changed.ports[{test::kPlanCaGuid, 1}].table[40] = 0x8020;  // block 1 of the CA port only
  const PKeyPlan plan = plan_pkey_tables(fabric, changed, applied);
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].request.attr_mod, 1u);
  EXPECT_EQ(plan.writes[0].request.data[16], 0x80) << "entry 40 = block 1 index 8 = bytes 16..17";
  EXPECT_EQ(plan.writes[0].request.data[17], 0x20);

  applied.forget_block(test::kPlanCaGuid, 1, 0);
  EXPECT_EQ(plan_pkey_tables(fabric, want, applied).writes.size(), 1u) << "a forgotten block is written again";
}

// plan_fabric() with a switch that can enforce in both directions (SwitchInfo byte 16 bits 7:6).
ObservedFabric enforcing_fabric(bool in = true, bool out = true) {
  ObservedFabric f = test::plan_fabric();
  f.nodes[0].switch_info->inbound_enforcement_cap = in;
  f.nodes[0].switch_info->outbound_enforcement_cap = out;
  return f;
}

TEST(PKeyPlan, EnforcementWaitsForTheTableThenSetsBothBitsAsANoChangeSet) {
  const SweepFabric fabric{enforcing_fabric()};
  const PartitionPlan want = two_ports();
  unsigned skipped = 0;
  EXPECT_TRUE(plan_pkey_enforcement(fabric, want, AppliedPKeys{}, skipped).empty())
      << "no enforcement against a table the port does not hold";
  EXPECT_EQ(skipped, 1u);

  AppliedPKeys applied;
  const auto blocks = pkey_blocks(want.ports.at({test::kPlanSwitchGuid, 1}).table);
  for (unsigned b = 0; b < blocks.size(); ++b) applied.record_block(test::kPlanSwitchGuid, 1, b, blocks[b]);
  const auto writes = plan_pkey_enforcement(fabric, want, applied, skipped);
  ASSERT_EQ(writes.size(), 1u);
  const TableWrite& w = writes[0];
  EXPECT_EQ(w.request.attr_id, mad::attr::kPortInfo);
  EXPECT_EQ(w.request.attr_mod, 1u);
  EXPECT_EQ(w.echo, EchoRule::kPortPartitionEnforcement);
  EXPECT_EQ(w.request.data[43] & 0x0c, 0x0c) << "byte 43 bits 3:2 (IBA 14.2.5.6)";
  EXPECT_EQ(w.request.data[43] & 0x03, 0x00) << "raw filtering is never set";
  const auto pi = mad::PortInfo::decode(w.request.data);
  EXPECT_EQ(pi.port_state, 0);
  EXPECT_EQ(pi.port_physical_state, 0);
  EXPECT_EQ(w.request.data[63], 0x5a) << "read-modify-write keeps what the port reported";
}

TEST(PKeyPlan, ADirectionTheSwitchCannotEnforceIsLeftOff) {
  AppliedPKeys applied;
  const PartitionPlan want = two_ports();
  const auto blocks = pkey_blocks(want.ports.at({test::kPlanSwitchGuid, 1}).table);
  for (unsigned b = 0; b < blocks.size(); ++b) applied.record_block(test::kPlanSwitchGuid, 1, b, blocks[b]);
  unsigned skipped = 0;
  EXPECT_TRUE(plan_pkey_enforcement(SweepFabric(test::plan_fabric()), want, applied, skipped).empty())
      << "neither cap (as ibsim): nothing to set";
  const auto writes = plan_pkey_enforcement(SweepFabric(enforcing_fabric(false, true)), want, applied, skipped);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].request.data[43] & 0x0c, 0x04) << "outbound only";
}

TEST(PKeyPlan, TheEnforcementEchoLooksAtTheTwoBitsOnly) {
  const SweepFabric fabric{enforcing_fabric()};
  AppliedPKeys applied;
  const PartitionPlan want = two_ports();
  const auto blocks = pkey_blocks(want.ports.at({test::kPlanSwitchGuid, 1}).table);
  for (unsigned b = 0; b < blocks.size(); ++b) applied.record_block(test::kPlanSwitchGuid, 1, b, blocks[b]);
  unsigned skipped = 0;
  const TableWrite w = plan_pkey_enforcement(fabric, want, applied, skipped).at(0);
  mad::SmpData reply = w.request.data;
  reply[10] ^= 0xff;  // another field changed by the SMA: still believed
  EXPECT_TRUE(echoed(w, reply));
  reply[43] &= static_cast<std::uint8_t>(~0x08);  // inbound not taken
  EXPECT_FALSE(echoed(w, reply));
  EXPECT_EQ(describe_write(w), "PortInfo Set 1 partition enforcement");
}

TEST(PKeyPlan, ClientReregisterIsSetWhereAskedAndNotRequiredInTheEcho) {
  ObservedFabric observed = test::plan_fabric();
  mad::PortInfo& ca = *observed.nodes[1].ports[1].port_info;
  ca.lid = 2;
  ca.master_sm_lid = 1;
  ca.subnet_timeout = 18;  // the SM-owned fields at OpenSM's defaults (EndportSettings::fields)
  ca.local_phy_errors = 8;
  ca.overrun_errors = 8;
  ca.capability_mask = mad::capmask::kIsClientReregistrationSupported;
  const SweepFabric fabric(std::move(observed));
  LidMap lids;
  ASSERT_TRUE(lids.assign(1, 1, 2, 0).ok());
  EndportSettings e;
  e.sm_lid = 1;
  EXPECT_TRUE(plan_endports(fabric, lids, e).writes.empty()) << "the port holds its settings";
  e.client_reregister.insert(fabric.topo().node(1).ports[1].guid);
  const PortPlan plan = plan_endports(fabric, lids, e);
  ASSERT_EQ(plan.writes.size(), 1u) << "ClientReregister alone makes a Set";
  EXPECT_EQ(plan.writes[0].request.data[51] & 0x80, 0x80) << "byte 51 bit 7";
  mad::SmpData reply = plan.writes[0].request.data;
  reply[51] &= 0x7f;  // write-only: reads back 0
  EXPECT_TRUE(echoed(plan.writes[0], reply));
}

}  // namespace
}  // namespace smd::pkey_plan_test
