// Heavy sweeps with isolation requests (SweepRunner::set_isolation_requests) on the fake fabric: the LFTs the
// fake switches end up holding send nothing over an isolated cable (at either end) and still deliver every
// LID; the cable stays Active; a host's only cable is never isolated; clearing the request routes over the
// cable again. Checked by walking the fake switches' tables, not with the runner's own.
#include <gtest/gtest.h>

#include "tests/unit/smd/lft_witness.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "tests/unit/smd/sweep_rig.h"

namespace smd::isolation_sweep_test {
namespace {

using test::expect_routes_deliver;
using test::first_problem;
using test::lids_sent_over;
using test::SweepRig;

// A leaf's first port cabled to a spine.
std::pair<NodeIndex, PortNum> leaf_uplink(const Topology& t) {
  for (NodeIndex s : t.switches()) {
    const Node& n = t.node(s);
    bool has_host = false;
    for (const Port& p : n.ports) has_host = has_host || (p.connected() && !t.node(p.peer).is_switch());
    if (!has_host) continue;
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      if (n.ports[p].connected() && t.node(n.ports[p].peer).is_switch()) return {s, p};
    }
  }
  return {kNoNode, 0};
}

TEST(IsolationSweep, RoutesGoAroundAnIsolatedCableAndComeBackWhenCleared) {
  auto t = make_leaf_spine({.leaves = 4, .spines = 2, .hosts_per_leaf = 3, .links_per_pair = 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const auto [leaf, port] = leaf_uplink(rig.topo);
  ASSERT_NE(leaf, kNoNode);
  const Port& cable = rig.topo.node(leaf).ports[port];
  const NodeIndex spine = cable.peer;
  const PortNum spine_port = cable.peer_port;
  expect_routes_deliver(rig.topo, rig.fabric);
  ASSERT_GT(lids_sent_over(rig.topo, rig.fabric, leaf, port), 0u) << "minhop spreads over both spines";

  const PortKey up{rig.guid(leaf), port};
  const NodeIndex host = rig.topo.cas()[5];
  const PortKey host_port{rig.guid(host), 1};
  runner.set_isolation_requests({up, host_port});
  const SweepSummary s = runner.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  ASSERT_EQ(runner.isolation().size(), 2u);
  EXPECT_TRUE(runner.isolation()[0].isolated) << runner.isolation()[0].reason;
  EXPECT_EQ(runner.isolation()[0].peer, (PortKey{rig.guid(spine), spine_port}));
  EXPECT_FALSE(runner.isolation()[1].isolated);
  EXPECT_NE(runner.isolation()[1].reason.find("cut off"), std::string::npos) << runner.isolation()[1].reason;
  expect_routes_deliver(rig.topo, rig.fabric);
  EXPECT_EQ(lids_sent_over(rig.topo, rig.fabric, leaf, port), 0u);
  EXPECT_EQ(lids_sent_over(rig.topo, rig.fabric, spine, spine_port), 0u);
  // The link itself is left as it was: up, both ends Active.
  EXPECT_EQ(rig.fabric.state(leaf, port), 4);
  EXPECT_EQ(rig.fabric.state(spine, spine_port), 4);

  runner.set_isolation_requests({});
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  EXPECT_TRUE(runner.isolation().empty());
  expect_routes_deliver(rig.topo, rig.fabric);
  EXPECT_GT(lids_sent_over(rig.topo, rig.fabric, leaf, port), 0u);
}

TEST(IsolationSweep, AnIsolatedCableThatWouldSplitTheSwitchesStaysIn) {
  // One spine: every leaf's only way to the others is its one up-link.
  auto t = make_leaf_spine({.leaves = 3, .spines = 1, .hosts_per_leaf = 2, .links_per_pair = 1});
  ASSERT_TRUE(t.ok());
  SweepRig rig(std::move(t.value()));
  SweepRunner& runner = rig.runner();
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  const auto [leaf, port] = leaf_uplink(rig.topo);
  runner.set_isolation_requests({{rig.guid(leaf), port}, {0x1234, 1}});
  const SweepSummary s = runner.heavy_sweep();
  ASSERT_TRUE(s.subnet_up) << first_problem(s);
  ASSERT_EQ(runner.isolation().size(), 2u);
  EXPECT_FALSE(runner.isolation()[0].isolated);
  EXPECT_NE(runner.isolation()[0].reason.find("cut off"), std::string::npos) << runner.isolation()[0].reason;
  EXPECT_FALSE(runner.isolation()[1].isolated);
  EXPECT_EQ(runner.isolation()[1].reason, "not in the fabric");
  expect_routes_deliver(rig.topo, rig.fabric);
  EXPECT_GT(lids_sent_over(rig.topo, rig.fabric, leaf, port), 0u);
}

}  // namespace
}  // namespace smd::isolation_sweep_test
