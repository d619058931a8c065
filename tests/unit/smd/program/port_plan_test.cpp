// Port plans on a hand-built fabric (plan_fixture.h): which PortInfo Sets configure endports and move
// links up, by the rules of IBA 14.2.5.6 (PortState NoChange = 0 in a Set that changes something else;
// NeighborMTU and OperationalVLs agreed by both ends before Armed, 7.6).
#include "smd/program/port_plan.h"

#include <gtest/gtest.h>

#include "tests/unit/smd/plan_fixture.h"
#include "smd/program/port_fields_plan.h"

namespace smd::port_plan_test {
namespace {

LidMap two_lids() {
  LidMap lids;
  EXPECT_TRUE(lids.assign(0, 0, 1, 0).ok());  // the switch
  EXPECT_TRUE(lids.assign(1, 1, 2, 0).ok());  // the CA
  return lids;
}

EndportSettings settings() {
  EndportSettings e;
  e.sm_lid = 1;
  return e;
}

TEST(PortPlan, EndportsGetLidLmcAndMasterSmLidAsANoChangeSet) {
  const SweepFabric fabric(test::plan_fabric());
  const PortPlan plan = plan_endports(fabric, two_lids(), settings());
  ASSERT_EQ(plan.writes.size(), 2u);
  EXPECT_EQ(plan.skipped, 0u);
  const TableWrite& ca = plan.writes[1];
  EXPECT_EQ(ca.node, 1u);
  EXPECT_EQ(ca.port, 1);
  EXPECT_EQ(ca.guid, test::kPlanCaGuid);
  EXPECT_EQ(ca.echo, EchoRule::kPortLidLmc);
  EXPECT_EQ(ca.request.attr_id, mad::attr::kPortInfo);
  EXPECT_EQ(ca.request.attr_mod, 1u);
  EXPECT_EQ(ca.request.path, mad::DrPath({1}));
  const auto pi = mad::PortInfo::decode(ca.request.data);
  EXPECT_EQ(pi.lid, 2);
  EXPECT_EQ(pi.master_sm_lid, 1);
  EXPECT_EQ(pi.port_state, 0) << "PortState NoChange: a Set of the state it has is refused with 0x1C";
  EXPECT_EQ(pi.port_physical_state, 0);
  EXPECT_EQ(pi.link_down_default_state, 0);
  EXPECT_EQ(pi.mtu_cap, 4) << "the rest of the PortInfo is what the port reported";
  EXPECT_EQ(ca.request.data[63], 0x5a) << "the bits the port reported are carried through";
}

TEST(PortPlan, AnEndportThatLacksOnlyItsPortFieldsGetsOneSetCarryingThem) {
  ObservedFabric observed = test::plan_fabric();
  mad::PortInfo& ca = *observed.nodes[1].ports[1].port_info;
  ca.lid = 2;
  ca.master_sm_lid = 1;
  ca.local_phy_errors = 8;
  ca.overrun_errors = 8;
  ca.link_width_supported = 3;  // 1x|4x
  ca.link_width_enabled = 2;    // 4x: not what 255 asks for
  const SweepFabric fabric(std::move(observed));
  EndportSettings want = settings();
  want.fields.subnet_timeout = 16;
  want.fields.master_sm_sl = 5;
  const PortPlan plan = plan_endports(fabric, two_lids(), want);
  ASSERT_EQ(plan.writes.size(), 2u);
  const auto pi = mad::PortInfo::decode(plan.writes[1].request.data);
  EXPECT_EQ(plan.writes[1].echo, EchoRule::kPortLidLmc) << "the fields are not part of the echo";
  EXPECT_EQ(pi.lid, 2);
  EXPECT_EQ(pi.subnet_timeout, 16);
  EXPECT_EQ(pi.master_sm_sl, 5);
  EXPECT_EQ(pi.link_width_enabled, 255) << "the code is written; the SMA makes it LinkWidthSupported";
  EXPECT_EQ(pi.hoq_life, 0) << "a CA port gets no HOQLife";
  // The port answered with SubnetTimeOut 31 and its old width (as ibsim): it still reads so, and is skipped.
  mad::PortInfo echoed = pi;
  echoed.subnet_timeout = 31;
  echoed.link_width_enabled = 2;
  AppliedPortFields acks;
  acks.record(test::kPlanCaGuid, 1, pi, echoed);
  ObservedFabric again = test::plan_fabric();
  mad::PortInfo& read = *again.nodes[1].ports[1].port_info;
  read = echoed;
  const SweepFabric next(std::move(again));
  const PortPlan second = plan_endports(next, two_lids(), want, nullptr, &acks);
  ASSERT_EQ(second.writes.size(), 1u) << "only the switch; the CA port holds what it answered";
  EXPECT_EQ(second.writes[0].node, 0u);
  // Another value read later (a reset, another SM) is written again.
  read.subnet_timeout = 0;
  ObservedFabric third = test::plan_fabric();
  *third.nodes[1].ports[1].port_info = read;
  const SweepFabric changed(std::move(third));
  EXPECT_EQ(plan_endports(changed, two_lids(), want, nullptr, &acks).writes.size(), 2u);
}

TEST(PortPlan, SwitchPortsGetLeafOrSwitchToSwitchHoqLife) {
  // plan_fabric cables switch port 1 to the CA: a leaf port. The SM-owned fields of a switch port are
  // HOQLife, VLStallCount, the thresholds and the link enables, in one Set believed by HOQLife.
  const SweepFabric fabric(test::plan_fabric());
  PortFieldSettings s;
  s.leaf_hoq_life = 0x0d;
  s.hoq_life = 0x13;
  s.leaf_vl_stall_count = 3;
  s.vl_stall_count = 6;
  const PortPlan plan = plan_switch_port_fields(fabric, s, AppliedPortFields{});
  ASSERT_EQ(plan.writes.size(), 1u) << "one cabled switch port";
  const TableWrite& w = plan.writes[0];
  EXPECT_EQ(w.port, 1);
  EXPECT_EQ(w.echo, EchoRule::kPortHoqLife);
  const auto pi = mad::PortInfo::decode(w.request.data);
  EXPECT_EQ(pi.hoq_life, 0x0d);
  EXPECT_EQ(pi.vl_stall_count, 3);
  EXPECT_EQ(pi.local_phy_errors, 8);
  EXPECT_EQ(pi.subnet_timeout, 0) << "not a switch port's field";
  EXPECT_EQ(pi.port_state, 0);
  mad::SmpData reply = w.request.data;
  reply[42] = static_cast<std::uint8_t>(reply[42] & 0xe0);  // HOQLife 0: not taken
  EXPECT_FALSE(echoed(w, reply));
  EXPECT_EQ(not_echoed_reason(w, reply), "HOQLife 13 not taken (port reports 0)");
  reply = w.request.data;
  reply[53] = 0;  // thresholds not stored (ibsim): still believed
  EXPECT_TRUE(echoed(w, reply));
}

TEST(PortPlan, AnEndportThatHoldsItsSettingsIsSkipped) {
  ObservedFabric observed = test::plan_fabric();
  mad::PortInfo& ca = *observed.nodes[1].ports[1].port_info;
  ca.lid = 2;
  ca.master_sm_lid = 1;
  ca.subnet_timeout = 18;  // the SM-owned fields at OpenSM's defaults (EndportSettings::fields)
  ca.local_phy_errors = 8;
  ca.overrun_errors = 8;
  const SweepFabric fabric(std::move(observed));
  const PortPlan plan = plan_endports(fabric, two_lids(), settings());
  ASSERT_EQ(plan.writes.size(), 1u);  // only the switch
  EXPECT_EQ(plan.writes[0].node, 0u);
  EXPECT_EQ(plan.skipped, 1u);
}

TEST(PortPlan, AnUnreadEndportIsLeftToDiscoverysProblem) {
  ObservedFabric observed = test::plan_fabric();
  observed.nodes[1].ports[1].port_info.reset();
  const SweepFabric fabric(std::move(observed));
  const PortPlan plan = plan_endports(fabric, two_lids(), settings());
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].node, 0u);
}

TEST(PortPlan, AnMKeyIsWrittenWithItsProtectionAndLease) {
  EndportSettings e = settings();
  e.m_key = 0x1234;
  e.m_key_protect = 2;
  e.m_key_lease_period_s = 60;
  const PortPlan plan = plan_endports(SweepFabric(test::plan_fabric()), two_lids(), e);
  ASSERT_EQ(plan.writes.size(), 2u);
  const auto pi = mad::PortInfo::decode(plan.writes[1].request.data);
  EXPECT_EQ(pi.m_key, 0x1234u);
  EXPECT_EQ(pi.m_key_protect_bits, 2);
  EXPECT_EQ(pi.m_key_lease_period, 60);
}

TEST(PortPlan, ArmingAgreesNeighborMtuAndOperationalVlsWithThePeer) {
  // Switch port 1: MTUCap 5 (4096), VLCap 4 (VL0-7); CA port 1: MTUCap 4 (2048), VLCap 2 (VL0-1).
  const PortPlan plan = plan_link_transitions(SweepFabric(test::plan_fabric()), PortState::kInit, PortState::kArmed);
  ASSERT_EQ(plan.writes.size(), 2u);  // both ends of the one cable; Down ports 2..4 are not cabled
  for (const TableWrite& w : plan.writes) {
    EXPECT_EQ(w.echo, EchoRule::kPortState);
    const auto pi = mad::PortInfo::decode(w.request.data);
    EXPECT_EQ(pi.port_state, 3);
    EXPECT_EQ(pi.neighbor_mtu, 4);
    EXPECT_EQ(pi.operational_vls, 2);
    EXPECT_EQ(pi.port_physical_state, 0);
  }
  EXPECT_EQ(plan.writes[0].node, 0u);
  EXPECT_EQ(plan.writes[0].port, 1);
  EXPECT_EQ(plan.writes[1].node, 1u);
}

TEST(PortPlan, ACaPortInInitIsArmedByItsEndportSetWithWhatArmingAgrees) {
  const SweepFabric fabric(test::plan_fabric());
  const ArmCaPorts arm;
  const PortPlan plan = plan_endports(fabric, two_lids(), settings(), &arm);
  ASSERT_EQ(plan.writes.size(), 2u);
  EXPECT_EQ(plan.armed, 1u);
  const auto sw = mad::PortInfo::decode(plan.writes[0].request.data);
  EXPECT_EQ(sw.port_state, 0) << "switch port 0 has no link: only CA ports are armed here";
  const TableWrite& ca = plan.writes[1];
  EXPECT_EQ(ca.echo, EchoRule::kPortLidLmcArmed) << "believed by its LID, read back when it fails";
  const auto pi = mad::PortInfo::decode(ca.request.data);
  EXPECT_EQ(pi.lid, 2);
  EXPECT_EQ(pi.port_state, 3);
  // The same agreement a separate arming Set makes (ArmingAgreesNeighborMtuAndOperationalVlsWithThePeer).
  EXPECT_EQ(pi.neighbor_mtu, 4);
  EXPECT_EQ(pi.operational_vls, 2);
  EXPECT_EQ(pi.port_physical_state, 0);

  // Acknowledged Armed, the port is no longer one the Init -> Armed step moves; its switch peer still is.
  SweepFabric after(test::plan_fabric());
  after.acknowledge_port(1, 1, pi);
  const PortPlan arming = plan_link_transitions(after, PortState::kInit, PortState::kArmed);
  ASSERT_EQ(arming.writes.size(), 1u);
  EXPECT_EQ(arming.writes[0].node, 0u);
  EXPECT_EQ(arming.skipped, 1u);
}

TEST(PortPlan, AnEndportSetArmsNothingItCannot) {
  // Without ArmCaPorts: as before.
  EXPECT_EQ(mad::PortInfo::decode(
                plan_endports(SweepFabric(test::plan_fabric()), two_lids(), settings()).writes[1].request.data)
                .port_state,
            0);
  const ArmCaPorts arm;
  // A CA port already Armed or Active, or whose peer is Down or unread, keeps PortState NoChange.
  for (const int variant : {0, 1, 2}) {
    ObservedFabric observed = test::plan_fabric();
    if (variant == 0) observed.nodes[1].ports[1].port_info->port_state = 4;
    if (variant == 1) observed.nodes[0].ports[1].port_info->port_state = 1;
    SweepFabric fabric(std::move(observed));
    if (variant == 2) fabric.forget_port(0, 1);
    const PortPlan plan = plan_endports(fabric, two_lids(), settings(), &arm);
    ASSERT_EQ(plan.writes.size(), 2u) << variant;
    EXPECT_EQ(plan.armed, 0u) << variant;
    EXPECT_EQ(mad::PortInfo::decode(plan.writes[1].request.data).port_state, 0) << variant;
  }
}

TEST(PortPlan, ActivationFollowsWhatThePortsAcknowledged) {
  SweepFabric fabric(test::plan_fabric());
  // Observed Init; the switch end acknowledged Armed, the CA end did not answer yet.
  mad::PortInfo armed = *fabric.port_info(0, 1);
  armed.port_state = 3;
  fabric.acknowledge_port(0, 1, armed);
  const PortPlan plan = plan_link_transitions(fabric, PortState::kArmed, PortState::kActive);
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].node, 0u);
  EXPECT_EQ(mad::PortInfo::decode(plan.writes[0].request.data).port_state, 4);
  EXPECT_EQ(plan.skipped, 1u);  // the CA port is still Init
  EXPECT_EQ(fabric.observed().port_info(0, 1)->port_state, 2) << "the observation itself is never edited";
}

TEST(PortPlan, AForgottenPortIsNotMoved) {
  SweepFabric fabric(test::plan_fabric());
  fabric.forget_port(1, 1);
  const PortPlan plan = plan_link_transitions(fabric, PortState::kInit, PortState::kArmed);
  ASSERT_EQ(plan.writes.size(), 1u);
  EXPECT_EQ(plan.writes[0].node, 0u);
  // Without the peer's PortInfo nothing is agreed: NeighborMTU and OperationalVLs stay as reported.
  EXPECT_EQ(mad::PortInfo::decode(plan.writes[0].request.data).operational_vls, 0);
}

TEST(SweepFabric, KnownFoldsAcknowledgedAndForgottenPortsIntoTheObservation) {
  SweepFabric fabric(test::plan_fabric());
  mad::PortInfo active = *fabric.port_info(0, 1);
  active.port_state = 4;
  fabric.acknowledge_port(0, 1, active);
  fabric.forget_port(1, 1);
  mad::SwitchInfo si = *fabric.switch_info(0);
  si.linear_fdb_top = 9;
  fabric.acknowledge_switch(0, si);
  const ObservedFabric next = std::move(fabric).known();
  ASSERT_NE(next.port_info(0, 1), nullptr);
  EXPECT_EQ(next.port_info(0, 1)->port_state, 4);
  EXPECT_EQ(next.port_info(1, 1), nullptr);
  EXPECT_EQ(next.nodes[0].switch_info->linear_fdb_top, 9);
  EXPECT_EQ(next.port_info(0, 2)->port_state, 1) << "what was not written stays as observed";
}

}  // namespace
}  // namespace smd::port_plan_test
