// health.babbling_port: the trap-rate rule (smd/perfmgr/babbling_ports.h), the choice of the link end to
// disable and the disable / enable writes of a master sweep (smd/program/port_disable.h) on the fake fabric.
// ibsim sends only traps 128 and 144 and keeps no PortPhysicalState, so the fake fabric models what a real
// SMA does with PortPhysicalState Disabled (the link goes down and stays down) and Polling (it trains again):
// the witness is the fake ports' state and the next sweep's fabric, not the runner's own records.
#include <gtest/gtest.h>

#include <chrono>

#include "routing/fabric_gen/fabric_gen.h"
#include "smd/perfmgr/babbling_ports.h"
#include "smd/program/port_disable.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::babbling_port_test {
namespace {

using namespace std::chrono_literals;
using test::first_problem;
using test::SweepRig;
using Time = std::chrono::steady_clock::time_point;

constexpr PortKey kPort{0x1234, 3};
const Time t0{std::chrono::hours(1)};

TEST(BabblingRule, TheNthTrapWithinTheWindowBabblesOnce) {
  BabblingPorts b({.traps = 5, .window = 10s});
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(b.record(kPort, 129, t0 + i * 1s)) << i;
  EXPECT_EQ(b.traps_in_window(kPort, t0 + 4s), 4u);
  const auto babbler = b.record(kPort, 131, t0 + 4s);
  ASSERT_TRUE(babbler);
  EXPECT_EQ(babbler->reason, "5 traps 129-131 in 10 s (last: 131)");
  EXPECT_EQ(babbler->since, t0 + 4s);
  // Once babbling, later traps change nothing (and are not counted).
  EXPECT_FALSE(b.record(kPort, 129, t0 + 5s));
  EXPECT_EQ(b.traps_in_window(kPort, t0 + 5s), 0u);
  EXPECT_EQ(b.babblers().size(), 1u);
}

TEST(BabblingRule, TrapsSpreadWiderThanTheWindowNeverBabble) {
  BabblingPorts b({.traps = 3, .window = 10s});
  // One every 5 s: at most two inside any 10 s window (a trap exactly one window old has left it).
  for (int i = 0; i < 50; ++i) EXPECT_FALSE(b.record(kPort, 130, t0 + i * 5s)) << i;
  EXPECT_EQ(b.traps_in_window(kPort, t0 + 245s), 2u);
  // A third inside the window of the last two babbles.
  EXPECT_TRUE(b.record(kPort, 130, t0 + 249s));
}

TEST(BabblingRule, PortsAreCountedApart) {
  BabblingPorts b({.traps = 2, .window = 60s});
  EXPECT_FALSE(b.record({0x1234, 1}, 129, t0));
  EXPECT_FALSE(b.record({0x1234, 2}, 129, t0));
  EXPECT_FALSE(b.record({0x9999, 1}, 129, t0));
  EXPECT_TRUE(b.record({0x1234, 2}, 129, t0 + 1s));
  ASSERT_EQ(b.babblers().size(), 1u);
  EXPECT_EQ(b.babblers().begin()->first, (PortKey{0x1234, 2}));
}

TEST(BabblingRule, ClearStartsTheCountAgainAndClearAllReturnsEveryBabbler) {
  BabblingPorts b({.traps = 2, .window = 60s});
  b.record(kPort, 129, t0);
  ASSERT_TRUE(b.record(kPort, 129, t0 + 1s));
  EXPECT_TRUE(b.clear(kPort));
  EXPECT_FALSE(b.clear(kPort));
  EXPECT_FALSE(b.record(kPort, 129, t0 + 2s)) << "the traps before the clear do not count";
  EXPECT_TRUE(b.record(kPort, 129, t0 + 3s));
  b.record({0x1, 1}, 129, t0 + 3s);
  b.record({0x1, 1}, 129, t0 + 4s);
  EXPECT_EQ(b.clear_all(), (std::vector<PortKey>{{0x1, 1}, kPort}));
  EXPECT_TRUE(b.babblers().empty());
}

TEST(BabblingRule, ANewRuleAppliesFromTheNextTrap) {
  BabblingPorts b({.traps = 100, .window = 60s});
  for (int i = 0; i < 3; ++i) b.record(kPort, 129, t0 + i * 1s);
  b.set_rule({.traps = 4, .window = 60s});
  EXPECT_TRUE(b.record(kPort, 129, t0 + 3s));
}

// Leaf-spine, the SM on the first host (fabric_gen): its leaf is 1 hop away, the spines 2, other leaves 3.
struct Fabric {
  Topology topo;
  NodeIndex host = kNoNode;  ///< a host on another leaf than the SM's
  NodeIndex leaf = kNoNode;  ///< its leaf
  PortNum leaf_port = 0;     ///< the leaf's port to the host
  PortNum uplink = 0;        ///< the leaf's first port to a spine
};

Fabric leaf_spine() {
  auto t = make_leaf_spine({.leaves = 3, .spines = 2, .hosts_per_leaf = 2, .links_per_pair = 1});
  EXPECT_TRUE(t.ok());
  Fabric f{std::move(t.value())};
  const NodeIndex sm_leaf = f.topo.node(f.topo.sm_node).ports[f.topo.sm_port].peer;
  for (NodeIndex h : f.topo.cas()) {
    const Port& p = f.topo.node(h).ports[1];
    if (p.peer == sm_leaf) continue;
    f.host = h;
    f.leaf = p.peer;
    f.leaf_port = p.peer_port;
    break;
  }
  const Node& leaf = f.topo.node(f.leaf);
  for (PortNum p = 1; p <= leaf.num_ports && f.uplink == 0; ++p) {
    if (leaf.ports[p].connected() && f.topo.node(leaf.ports[p].peer).is_switch()) f.uplink = p;
  }
  return f;
}

TEST(DisableEnd, TheEndNearerTheSmIsTaken) {
  Fabric f = leaf_spine();
  SweepRig rig(f.topo);
  ASSERT_TRUE(rig.runner().heavy_sweep().subnet_up);
  const Topology& topo = *rig.runner().topology();  // as discovered, with its DR paths
  const Port& up = rig.topo.node(f.leaf).ports[f.uplink];
  const PortKey leaf_to_host{rig.guid(f.leaf), f.leaf_port};
  const PortKey spine_end{rig.guid(up.peer), up.peer_port};
  // A host's port: its leaf is nearer.
  const auto host_end = disable_end(topo, {rig.guid(f.host), 1});
  ASSERT_TRUE(host_end.ok()) << host_end.error().message;
  EXPECT_EQ(*host_end, leaf_to_host);
  EXPECT_EQ(*disable_end(topo, leaf_to_host), leaf_to_host);
  // The far leaf's uplink: the spine (2 hops) is nearer than the leaf (3 hops), from either end.
  const auto from_leaf = disable_end(topo, {rig.guid(f.leaf), f.uplink});
  ASSERT_TRUE(from_leaf.ok());
  EXPECT_EQ(*from_leaf, spine_end);
  const auto from_spine = disable_end(topo, spine_end);
  ASSERT_TRUE(from_spine.ok());
  EXPECT_EQ(*from_spine, spine_end);
}

TEST(DisableEnd, TheSmsOwnPortAndUnknownPortsAreRefused) {
  SweepRig rig(leaf_spine().topo);
  ASSERT_TRUE(rig.runner().heavy_sweep().subnet_up);
  const Topology& topo = *rig.runner().topology();
  const auto own = disable_end(topo, {topo.node(topo.sm_node).guid, topo.sm_port});
  ASSERT_FALSE(own.ok());
  EXPECT_EQ(own.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(own.error().message.find("the SM's own port"), std::string::npos) << own.error().message;
  // From the leaf's side of the SM's cable the nearer end is still the SM's host (0 hops): refused too.
  const Port& sm_cable = topo.node(topo.sm_node).ports[topo.sm_port];
  EXPECT_FALSE(disable_end(topo, {topo.node(sm_cable.peer).guid, sm_cable.peer_port}).ok());
  EXPECT_FALSE(disable_end(topo, {0xdead, 1}).ok());
  EXPECT_FALSE(disable_end(topo, {topo.node(sm_cable.peer).guid, 99}).ok());
}

// How many hosts the sweep found.
std::size_t hosts_of(const SweepRunner& runner) { return runner.topology()->cas().size(); }

TEST(PortDisableSweep, ADisabledLinkStaysDownUntilEnabled) {
  Fabric f = leaf_spine();
  SweepRig rig(f.topo);
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const std::size_t hosts = hosts_of(runner);
  const PortKey end{rig.guid(f.leaf), f.leaf_port};

  runner.set_phys_state_requests({end}, {});
  const SweepSummary s = runner.heavy_sweep();
  EXPECT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_EQ(runner.phys_state_outcome().disabled, std::vector<PortKey>{end});
  EXPECT_TRUE(rig.fabric.phys_disabled(f.leaf, f.leaf_port));
  EXPECT_FALSE(rig.fabric.phys_disabled(f.host, 1)) << "only the chosen end is disabled";

  // The next sweep finds the host gone; the request is still there and is carried out again (the port is
  // Down, so the write changes nothing), and the rest of the subnet comes up.
  const SweepSummary gone = runner.heavy_sweep();
  EXPECT_TRUE(gone.subnet_up) << first_problem(gone);
  EXPECT_EQ(hosts_of(runner), hosts - 1);
  EXPECT_FALSE(runner.topology()->find(rig.guid(f.host)).has_value());
  EXPECT_TRUE(rig.fabric.phys_disabled(f.leaf, f.leaf_port));

  // Enabled: the port trains (Init), the sweep after arms and activates it and finds the host again.
  runner.set_phys_state_requests({}, {end});
  runner.heavy_sweep();
  EXPECT_EQ(runner.phys_state_outcome().enabled, std::vector<PortKey>{end});
  EXPECT_FALSE(rig.fabric.phys_disabled(f.leaf, f.leaf_port));
  runner.set_phys_state_requests({}, {});
  const SweepSummary back = runner.heavy_sweep();
  EXPECT_TRUE(back.subnet_up) << first_problem(back);
  EXPECT_EQ(hosts_of(runner), hosts);
  EXPECT_TRUE(runner.topology()->find(rig.guid(f.host)).has_value());
}

TEST(PortDisableSweep, TheWriteKeepsThePortsOtherFields) {
  Fabric f = leaf_spine();
  SweepRig rig(f.topo);
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const std::uint8_t hoq = rig.fabric.hoq_life(f.leaf, f.uplink);
  const std::uint8_t vl_high = rig.fabric.vl_high_limit(f.leaf, f.uplink);
  runner.set_phys_state_requests({{rig.guid(f.leaf), f.uplink}}, {});
  runner.heavy_sweep();
  ASSERT_TRUE(rig.fabric.phys_disabled(f.leaf, f.uplink));
  EXPECT_EQ(rig.fabric.hoq_life(f.leaf, f.uplink), hoq);
  EXPECT_EQ(rig.fabric.vl_high_limit(f.leaf, f.uplink), vl_high);
}

TEST(PortDisableSweep, APortNotInTheFabricHasNoWrite) {
  Fabric f = leaf_spine();
  SweepRig rig(f.topo);
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  runner.set_phys_state_requests({{0xdead, 1}}, {});
  const SweepSummary s = runner.heavy_sweep();
  EXPECT_TRUE(s.subnet_up) << first_problem(s);
  EXPECT_TRUE(runner.phys_state_outcome().disabled.empty());
}

}  // namespace
}  // namespace smd::babbling_port_test
