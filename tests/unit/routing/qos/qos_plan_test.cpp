// The SL2VL and VL arbitration plans (routing/qos): per-type tables, the routing layers' override, the
// problems of SLs past a port's VLs, and arbitration cut to the caps. Expected tables are written out.
#include <gtest/gtest.h>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/qos/sl2vl_plan.h"
#include "routing/qos/vlarb_plan.h"

namespace smd::qos_plan_test {
namespace {

// Two switches (ports 1 = the cable, 2..3 = hosts), four one-port hosts, every port VLCap `cap`.
Topology two_switch(std::uint8_t cap) {
  auto t = make_two_switch(1, 2);
  EXPECT_TRUE(t.ok());
  Topology topo = std::move(t.value());
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    for (Port& p : topo.mutable_node(n).ports) p.vl_cap = cap;
  }
  return topo;
}

Sl2Vl filled(std::uint8_t vl) {
  Sl2Vl t;
  t.fill(vl);
  return t;
}

TEST(Sl2VlPlan, EachPortTypeTakesItsOwnTable) {
  const Topology topo = two_switch(4);
  QosSpec spec;
  spec.enabled = true;
  spec.ca.sl2vl = filled(1);
  spec.switch_external.sl2vl = filled(2);
  spec.switch_port0.sl2vl = filled(3);
  spec.router.sl2vl = filled(4);
  const Sl2VlPlan plan(topo, spec, nullptr);
  const NodeIndex sw = topo.switches()[0];
  const NodeIndex ca = topo.cas()[0];
  EXPECT_EQ(plan.table(ca, 0, 1), filled(1));
  EXPECT_EQ(plan.table(sw, 0, 2), filled(2));
  EXPECT_EQ(plan.table(sw, 3, 1), filled(2));
  EXPECT_EQ(plan.table(sw, 0, 0), filled(3));
  EXPECT_EQ(plan.table_of(QosPortType::kRouter), filled(4));
  EXPECT_TRUE(plan.warnings().empty());
  EXPECT_TRUE(plan.problems().empty()) << "VL 1..4 fit 8 data VLs";
}

TEST(Sl2VlPlan, RoutingLayersWinBelowTheLayerCountAndTheDisagreementIsWarned) {
  const Topology topo = two_switch(4);
  QosSpec spec;
  spec.enabled = true;
  spec.ca.sl2vl = filled(0);
  spec.switch_external.sl2vl = filled(0);
  spec.switch_external.sl2vl[1] = 1;  // agrees with layer 1
  spec.switch_port0.sl2vl = filled(0);
  spec.router.sl2vl = filled(0);
  VlLayering layers(topo, 10);
  layers.set(topo.switches()[0], 5, 2);  // three layers: 0, 1, 2
  ASSERT_EQ(layers.layers(), 3);
  const Sl2VlPlan plan(topo, spec, &layers);
  Sl2Vl want = filled(0);
  want[1] = 1;
  want[2] = 2;
  EXPECT_EQ(plan.table(topo.switches()[1], 0, 1), want);
  EXPECT_EQ(plan.table(topo.cas()[0], 0, 1), want);
  // Every type disagreed on SL 2 (and all but switch_external on SL 1): one warning per type.
  ASSERT_EQ(plan.warnings().size(), 4u);
  EXPECT_NE(plan.warnings()[3].find("switch_external"), std::string::npos);
  EXPECT_EQ(plan.warnings()[3].find("SL 1 "), std::string::npos) << plan.warnings()[3];

  VlLayering one(topo, 10);
  const Sl2VlPlan same(topo, spec, &one);
  EXPECT_EQ(same.table(topo.cas()[0], 0, 1), filled(0)) << "one layer changes nothing";
  EXPECT_TRUE(same.warnings().empty());
}

TEST(Sl2VlPlan, SlsPastTheOperationalVlsAreOneProblemPerNodeAndType) {
  // VLCap 3 = VL0-3 on every port; OpenSM's default table maps SL 4..14 to VL 4..14 and SL 15 to VL 7.
  const Topology topo = two_switch(3);
  QosSpec spec;
  spec.enabled = true;
  const Sl2VlPlan plan(topo, spec, nullptr);
  ASSERT_EQ(plan.problems().size(), 6u) << "2 switches (external ports) + 4 hosts";
  const std::vector<std::uint8_t> want = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  for (const Sl2VlProblem& p : plan.problems()) {
    EXPECT_EQ(p.sls, want);
    EXPECT_NE(p.reason.find("4 data VLs"), std::string::npos) << p.reason;
  }
  EXPECT_EQ(plan.problems()[0].node_guid, topo.node(0).guid);
}

TEST(Sl2VlPlan, ProblemsAreSummarisedOneLinePerPortTypeAndSls) {
  // The same default table on VL0-3 ports: the 4 hosts (first in the topology) share one line, the 2
  // switches another; SLs 4..15 fold into one run.
  const Topology topo = two_switch(3);
  QosSpec spec;
  spec.enabled = true;
  const Sl2VlPlan plan(topo, spec, nullptr);
  const std::vector<std::string> lines = summarize_problems(plan.problems());
  ASSERT_EQ(lines.size(), 2u);
  const std::string hosts = std::string(to_string(QosPortType::kCa)) + " ports of 4 nodes drop SLs 4-15 (e.g. " +
                            format_guid(topo.node(0).guid) + ": ";
  EXPECT_EQ(lines[0].substr(0, hosts.size()), hosts) << lines[0];
  EXPECT_NE(lines[1].find(" ports of 2 nodes drop SLs 4-15 (e.g. "), std::string::npos) << lines[1];
  // Gaps stay visible, a single SL reads as one.
  std::vector<Sl2VlProblem> odd = {{0x10, QosPortType::kCa, {1, 3, 4, 5, 9}, "why"},
                                   {0x11, QosPortType::kCa, {7}, "why"}};
  const std::vector<std::string> two = summarize_problems(odd);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_NE(two[0].find(" ports of 1 node drop SLs 1, 3-5, 9 (e.g. 0x0000000000000010: why)"), std::string::npos)
      << two[0];
  EXPECT_NE(two[1].find(" drop SL 7 (e.g."), std::string::npos) << two[1];
}

TEST(Sl2VlPlan, MaxVlsCapsTheOperationalVls) {
  const Topology topo = two_switch(4);  // 8 data VLs
  QosSpec spec;
  spec.enabled = true;
  spec.ca.max_vls = 2;
  const Sl2VlPlan plan(topo, spec, nullptr);
  unsigned ca_problems = 0, sw_problems = 0;
  for (const Sl2VlProblem& p : plan.problems()) {
    if (p.type == QosPortType::kCa) {
      ++ca_problems;
      EXPECT_EQ(p.sls.front(), 2);
      EXPECT_EQ(p.sls.size(), 14u) << "SL 2..15 (SL 15 -> VL 7)";
    } else {
      ++sw_problems;
      EXPECT_EQ(p.sls, (std::vector<std::uint8_t>{8, 9, 10, 11, 12, 13, 14})) << "VL 15 is drop, SL15 -> 7 fits";
    }
  }
  EXPECT_EQ(ca_problems, 4u);
  EXPECT_EQ(sw_problems, 2u);
}

TEST(Sl2VlPlan, OpVlsCodeForMaxVls) {
  EXPECT_EQ(op_vls_code_for(0), 1);
  EXPECT_EQ(op_vls_code_for(1), 1);
  EXPECT_EQ(op_vls_code_for(3), 2);
  EXPECT_EQ(op_vls_code_for(4), 3);
  EXPECT_EQ(op_vls_code_for(7), 3);
  EXPECT_EQ(op_vls_code_for(8), 4);
  EXPECT_EQ(op_vls_code_for(14), 4);
  EXPECT_EQ(op_vls_code_for(15), 5);
}

std::vector<std::vector<VlArbCaps>> caps_of(const Topology& topo, VlArbCaps c) {
  std::vector<std::vector<VlArbCaps>> out;
  for (const Node& n : topo.nodes()) out.emplace_back(n.ports.size(), c);
  return out;
}

const PortVlArb* find(const std::vector<PortVlArb>& plan, NodeIndex n, PortNum p) {
  for (const PortVlArb& pv : plan) {
    if (pv.node == n && pv.port == p) return &pv;
  }
  return nullptr;
}

TEST(VlArbPlan, TablesAreCutAndPaddedToTheCaps) {
  const Topology topo = two_switch(4);
  QosSpec spec;
  spec.enabled = true;
  spec.switch_external.vlarb_high = {{1, 10}, {2, 20}, {3, 30}};
  spec.switch_external.vlarb_low.clear();
  for (std::uint8_t i = 0; i < 12; ++i) spec.switch_external.vlarb_low.push_back({i, static_cast<std::uint8_t>(i + 1)});
  spec.switch_external.high_limit = 7;
  const auto plan = plan_vlarb(topo, spec, caps_of(topo, {4, 2, 5}), std::vector<bool>(topo.size(), false));
  // Ports 1..3 of both switches and the 4 host ports; no switch port 0 (base port 0).
  ASSERT_EQ(plan.size(), 10u);
  const NodeIndex s0 = topo.switches()[0];
  ASSERT_NE(find(plan, s0, 1), nullptr);
  EXPECT_EQ(find(plan, s0, 0), nullptr);
  const PortVlArb& sw = *find(plan, s0, 1);
  EXPECT_EQ(sw.high, (std::vector<VlArbEntry>{{1, 10}, {2, 20}})) << "cut to the high cap 2";
  EXPECT_EQ(sw.low, (std::vector<VlArbEntry>{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}})) << "cut to 5";
  EXPECT_EQ(sw.high_limit, 7);

  const auto padded = plan_vlarb(topo, spec, caps_of(topo, {4, 40, 0}), std::vector<bool>(topo.size(), true));
  ASSERT_EQ(padded.size(), 12u) << "enhanced port 0 of each switch too";
  ASSERT_NE(find(padded, s0, 0), nullptr);
  ASSERT_NE(find(padded, s0, 1), nullptr);
  const PortVlArb& p0 = *find(padded, s0, 0);
  EXPECT_EQ(p0.high.size(), 40u);
  EXPECT_EQ(p0.high[0], (VlArbEntry{0, 4})) << "switch_port0 keeps OpenSM's default high 0:4";
  EXPECT_TRUE(p0.low.empty());
  const PortVlArb& p1 = *find(padded, s0, 1);
  EXPECT_EQ(p1.high[2], (VlArbEntry{3, 30}));
  EXPECT_EQ(p1.high[3], (VlArbEntry{0, 0})) << "padded with skipped entries";
  EXPECT_EQ(p1.high[39], (VlArbEntry{0, 0}));
}

TEST(VlArbPlan, OneDataVlOrUnknownCapGetsNothing) {
  const Topology topo = two_switch(4);
  QosSpec spec;
  spec.enabled = true;
  auto caps = caps_of(topo, {1, 8, 8});
  const NodeIndex ca = topo.cas()[0];
  caps[ca][1] = {4, 8, 8};
  const auto plan = plan_vlarb(topo, spec, caps, std::vector<bool>(topo.size(), false));
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].node, ca);
  EXPECT_TRUE(plan_vlarb(topo, spec, caps_of(topo, {0, 8, 8}), {}).empty());
}

}  // namespace
}  // namespace smd::qos_plan_test
