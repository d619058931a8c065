// The PortInfo fields the SM owns besides addressing (SubnetTimeOut, MasterSMSL, HOQLife, VLStallCount, the
// error thresholds, the link enables) and SwitchInfo LifeTimeValue, in whole heavy sweeps against FakeFabric:
// two switches cabled once, two hosts on each (make_two_switch(1, 2)). Expected values are the policy's, chosen
// per port here from the topology (leaf = a switch port whose peer is a CA), not by the code under test.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/state/port_fields_file.h"
#include "smd/sweep/sweep_runner.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::port_fields_sweep_test {
namespace {

using test::first_problem;
using test::SweepRig;

std::unique_ptr<SweepRig> rig() {
  auto t = make_two_switch(1, 2);
  EXPECT_TRUE(t.ok());
  return std::make_unique<SweepRig>(std::move(t.value()));
}

unsigned endport_count(const Topology& t) {
  unsigned n = static_cast<unsigned>(t.switches().size());
  for (NodeIndex ca : t.cas()) {
    for (PortNum p = 1; p <= t.node(ca).num_ports; ++p) n += t.node(ca).ports[p].connected() ? 1 : 0;
  }
  return n;
}

// Every port holds what `pp` asks for (the fake stores every field, as a real SMA).
void expect_fields(const SweepRig& r, const PortsPolicy& pp, std::uint8_t width, std::uint8_t speed) {
  const Topology& t = r.topo;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (node.is_switch()) {
      EXPECT_EQ(r.fabric.subnet_timeout(n, 0), pp.subnet_timeout) << node.guid;
      EXPECT_EQ(r.fabric.master_sm_sl(n, 0), pp.sm_sl);
      EXPECT_EQ(r.fabric.life_time_value(n), pp.packet_life_time);
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (!node.ports[p].connected()) continue;
      const bool leaf = !t.node(node.ports[p].peer).is_switch();
      SCOPED_TRACE("node " + std::to_string(n) + " port " + std::to_string(p));
      if (node.is_switch()) {
        EXPECT_EQ(r.fabric.hoq_life(n, p), leaf ? pp.leaf_head_of_queue_lifetime : pp.head_of_queue_lifetime);
        EXPECT_EQ(r.fabric.vl_stall_count(n, p), leaf ? pp.leaf_vl_stall_count : pp.vl_stall_count);
      } else {
        EXPECT_EQ(r.fabric.subnet_timeout(n, p), pp.subnet_timeout);
        EXPECT_EQ(r.fabric.master_sm_sl(n, p), pp.sm_sl);
        EXPECT_EQ(r.fabric.hoq_life(n, p), 0) << "OpenSM gives a CA port no HOQLife";
      }
      EXPECT_EQ(r.fabric.local_phy_errors(n, p), pp.local_phy_errors_threshold);
      EXPECT_EQ(r.fabric.overrun_errors(n, p), pp.overrun_errors_threshold);
      EXPECT_EQ(r.fabric.link_width_enabled(n, p), width);
      EXPECT_EQ(r.fabric.link_speed_enabled(n, p), speed);
    }
  }
}

TEST(PortFieldsSweep, OpenSmDefaultsOnEveryPortAndTheNextSweepSendsNothing) {
  auto r = rig();
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  // 255 and 15 ask for what the port supports: the fake supports 1x|4x (3) and SDR (1).
  expect_fields(*r, PortsPolicy{}, 3, 1);
  // The defaults, spelled out once: leaf HOQLife 0x10, switch-to-switch 0x12.
  const NodeIndex sw = r->topo.switches()[0];
  for (PortNum p = 1; p <= r->topo.node(sw).num_ports; ++p) {
    const Port& port = r->topo.node(sw).ports[p];
    if (port.connected()) {
      EXPECT_EQ(r->fabric.hoq_life(sw, p), r->topo.node(port.peer).is_switch() ? 0x12 : 0x10);
    }
  }
  const unsigned port_sets = r->fabric.port_info_sets();
  const unsigned switch_sets = r->fabric.switch_info_sets();
  const SweepSummary again = r->runner().heavy_sweep();
  ASSERT_TRUE(again.subnet_up) << first_problem(again);
  EXPECT_EQ(r->fabric.port_info_sets(), port_sets) << "every port already holds its fields";
  EXPECT_EQ(r->fabric.switch_info_sets(), switch_sets) << "every switch already holds LifeTimeValue";
  EXPECT_EQ(again.port_sets, 0u);
}

TEST(PortFieldsSweep, PolicyValuesReachEveryPort) {
  auto r = rig();
  PortsPolicy& pp = r->policy.ports;
  pp.subnet_timeout = 14;
  pp.sm_sl = 3;
  pp.head_of_queue_lifetime = 0x13;
  pp.leaf_head_of_queue_lifetime = 0x0c;
  pp.vl_stall_count = 5;
  pp.leaf_vl_stall_count = 2;
  pp.local_phy_errors_threshold = 4;
  pp.overrun_errors_threshold = 6;
  pp.packet_life_time = 0x0f;
  pp.force_link_width = 1;  // 1x only: a mask is written as it is
  pp.force_link_speed = 0;  // leave as is: the fake's ports start with SDR (1)
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  expect_fields(*r, pp, 1, 1);
}

TEST(PortFieldsSweep, AChangedPolicyGetsOneSetPerPortThatNeedsIt) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  // SubnetTimeOut is an endport field: the CA ports and switch port 0 need a Set, the switch ports none.
  Policy changed = r->policy;
  changed.ports.subnet_timeout = 12;
  r->runner().set_policy(changed);
  const unsigned before = r->fabric.port_info_sets();
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(r->fabric.port_info_sets() - before, endport_count(r->topo));
  expect_fields(*r, changed.ports, 3, 1);
  // Leaf HOQLife only: one Set per switch port facing a CA, none to the switch-to-switch ports.
  changed.ports.leaf_head_of_queue_lifetime = 0x11;
  r->runner().set_policy(changed);
  const unsigned before_leaf = r->fabric.port_info_sets();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  EXPECT_EQ(r->fabric.port_info_sets() - before_leaf, r->topo.cas().size());
  expect_fields(*r, changed.ports, 3, 1);
}

TEST(PortFieldsSweep, LifeTimeValueAloneIsOneSwitchInfoSetPerSwitch) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  Policy changed = r->policy;
  changed.ports.packet_life_time = 0x14;
  r->runner().set_policy(changed);
  const unsigned sets = r->fabric.switch_info_sets();
  const unsigned blocks = r->fabric.lft_block_sets();
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(r->fabric.switch_info_sets() - sets, r->topo.switches().size());
  EXPECT_EQ(r->fabric.lft_block_sets(), blocks) << "the LinearFDBTop is the same: no LFT block again";
  for (NodeIndex sw : r->topo.switches()) EXPECT_EQ(r->fabric.life_time_value(sw), 0x14);
}

TEST(PortFieldsSweep, AFieldChangedBehindTheSmsBackIsWrittenAgainOnce) {
  auto r = rig();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  const NodeIndex sw = r->topo.switches()[0];
  PortNum leaf_port = 0;
  for (PortNum p = 1; p <= r->topo.node(sw).num_ports && leaf_port == 0; ++p) {
    const Port& port = r->topo.node(sw).ports[p];
    if (port.connected() && !r->topo.node(port.peer).is_switch()) leaf_port = p;
  }
  ASSERT_NE(leaf_port, 0);
  r->fabric.set_hoq_life(sw, leaf_port, 0);  // what ibsim's ports hold when no SM wrote them
  const NodeIndex ca = r->topo.cas()[0];
  r->fabric.set_subnet_timeout(ca, 1, 0);
  const unsigned before = r->fabric.port_info_sets();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  EXPECT_EQ(r->fabric.port_info_sets() - before, 2u);
  EXPECT_EQ(r->fabric.hoq_life(sw, leaf_port), 0x10);
  EXPECT_EQ(r->fabric.subnet_timeout(ca, 1), 18);
}

TEST(PortFieldsSweep, PortsThatDoNotReportFieldsAsWrittenAreNotWrittenOnEverySweep) {
  // ibsim keeps SubnetTimeOut 31, VLStallCount 7 and the thresholds 0 whatever is written, and ignores
  // LinkWidthEnabled 255: the echo shows the old value. Such a port is believed to hold what it was sent.
  auto r = rig();
  r->fabric.answer_port_fields_like_ibsim();
  const SweepSummary s = r->runner().heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  const NodeIndex ca = r->topo.cas()[0];
  EXPECT_EQ(r->fabric.subnet_timeout(ca, 1), 0) << "the fake stored nothing, as ibsim";
  EXPECT_EQ(r->fabric.link_width_enabled(ca, 1), 2) << "255 ignored";
  const NodeIndex sw = r->topo.switches()[0];
  for (PortNum p = 1; p <= r->topo.node(sw).num_ports; ++p) {
    const Port& port = r->topo.node(sw).ports[p];
    if (port.connected()) {
      EXPECT_EQ(r->fabric.hoq_life(sw, p), r->topo.node(port.peer).is_switch() ? 0x12 : 0x10);
    }
  }
  const unsigned before = r->fabric.port_info_sets();
  for (int i = 0; i < 2; ++i) {
    const SweepSummary again = r->runner().heavy_sweep();
    ASSERT_TRUE(again.subnet_up) << first_problem(again);
  }
  EXPECT_EQ(r->fabric.port_info_sets(), before);
  // A re-sweep from scratch (the SM stood by and came back) knows nothing it sent: one Set each again.
  r->runner().forget_programming();
  ASSERT_TRUE(r->runner().heavy_sweep().subnet_up);
  EXPECT_GT(r->fabric.port_info_sets(), before);
}

TEST(PortFieldsSweep, ANewProcessKnowsWhatThePortsAnsweredFromStateDir) {
  // ibsim-like ports: without state_dir/port-fields a restarted SM would write every port once more.
  auto r = rig();
  r->fabric.answer_port_fields_like_ibsim();
  {
    SweepRunner first(r->io, r->fabric, r->policy);
    const SweepSummary s = first.heavy_sweep();
    ASSERT_TRUE(s.subnet_up) << first_problem(s);
  }
  const unsigned before = r->fabric.port_info_sets();
  {
    SweepRunner second(r->io, r->fabric, r->policy);
    const SweepSummary s = second.heavy_sweep();
    ASSERT_TRUE(s.subnet_up) << first_problem(s);
    EXPECT_EQ(s.port_sets, 0u);
  }
  EXPECT_EQ(r->fabric.port_info_sets(), before);
  // A damaged line is skipped (that port is written again), the others kept.
  const std::string path = r->policy.sm.state_dir + "/port-fields";
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t second_line = text.find('\n', text.find('\n') + 1);
  ASSERT_NE(second_line, std::string::npos);
  text.insert(second_line + 1, "0xzz 1 - - - - - - - - -\n");
  const std::size_t first_entry = text.find('\n') + 1;
  text.replace(first_entry, 2, "#");  // one port's record gone (commented out)
  {
    std::ofstream out(path, std::ios::trunc);
    out << text;
  }
  SweepRunner third(r->io, r->fabric, r->policy);
  const SweepSummary s = third.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(r->fabric.port_info_sets() - before, 1u) << "only the port whose record was lost";
}

TEST(PortFieldsFile, RoundTripAndBadLines) {
  AppliedPortFields f;
  mad::PortInfo sent, echoed;
  sent.subnet_timeout = 18;
  echoed.subnet_timeout = 31;
  sent.hoq_life = echoed.hoq_life = 16;
  f.record(0x2c90300a1b2c3ULL, 7, sent, echoed);
  f.record(0x100000ULL, 1, sent, sent);
  const std::string text = format_port_fields(f);
  const PortFieldsFile back = parse_port_fields(text);
  EXPECT_TRUE(back.problems.empty());
  EXPECT_EQ(back.fields, f);
  const PortFieldAcks* acks = back.fields.port(0x2c90300a1b2c3ULL, 7);
  ASSERT_NE(acks, nullptr);
  EXPECT_EQ((*acks)[static_cast<std::size_t>(PortField::kSubnetTimeOut)], (FieldAck{18, 31}));
  const PortFieldsFile bad = parse_port_fields(
      "0x1 1 1/1 2/2 3/3 4/4 5/5 6/6 7/7 8/8 9/9\n"    // kept
      "0x2 1 1/1\n"                                    // too few pairs
      "0x3 300 - - - - - - - - -\n"                    // no such port
      "0x4 1 1/1 2/2 3/3 4/4 5/5 6/6 7/7 8/8 256/1\n"  // a code above 255
      "4 1 - - - - - - - - -\n"                       // GUID without 0x
      "0x1 1 9/9 - - - - - - - -\n");                  // port 1 of 0x1 again: the first line wins
  EXPECT_EQ(bad.fields.size(), 1u);
  ASSERT_EQ(bad.problems.size(), 5u);
  EXPECT_EQ(bad.problems[0].rfind("line 2: ", 0), 0u) << bad.problems[0];
  EXPECT_EQ(bad.problems[3].rfind("line 5: ", 0), 0u) << bad.problems[3];
  EXPECT_EQ(bad.problems[4], "line 6: port 1 of 0x1 is already listed at line 1; this line is ignored");
  const PortFieldAcks* kept = bad.fields.port(0x1, 1);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ((*kept)[0], (FieldAck{1, 1}));
}

TEST(PortFieldsSweep, APortThatDoesNotTakeHoqLifeIsAProblem) {
  auto r = rig();
  const NodeIndex sw = r->topo.switches()[0];
  PortNum cabled = 0;
  for (PortNum p = 1; p <= r->topo.node(sw).num_ports && cabled == 0; ++p) {
    if (r->topo.node(sw).ports[p].connected()) cabled = p;
  }
  r->fabric.stick_hoq_life(sw, cabled);
  const SweepSummary s = r->runner().heavy_sweep();
  EXPECT_FALSE(s.subnet_up);
  bool named = false;
  for (const SweepProblem& p : s.problems) {
    named = named || (p.guid == r->topo.node(sw).guid && p.reason.find("HOQLife") != std::string::npos);
  }
  EXPECT_TRUE(named) << first_problem(s);
}

}  // namespace
}  // namespace smd::port_fields_sweep_test
