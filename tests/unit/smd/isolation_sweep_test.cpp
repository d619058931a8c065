// Heavy sweeps with isolation requests (SweepRunner::set_isolation_requests) on the fake fabric: the LFTs the
// fake switches end up holding send nothing over an isolated cable (at either end) and still deliver every
// LID; the cable stays Active; a host's only cable is never isolated; clearing the request routes over the
// cable again. Checked by walking the fake switches' tables, not with the runner's own.
#include <gtest/gtest.h>

#include <map>

#include "routing/fabric_gen/fabric_gen.h"
#include "sweep_rig.h"

namespace smd {
namespace {

using test::first_problem;
using test::SweepRig;

// LIDs owned by every endport, as the fake fabric holds them.
std::map<Lid, std::pair<NodeIndex, PortNum>> owners(const Topology& t, const test::FakeFabric& f) {
  std::map<Lid, std::pair<NodeIndex, PortNum>> owner;
  for (NodeIndex n = 0; n < t.size(); ++n) {
    const Node& node = t.node(n);
    if (node.is_switch()) {
      owner[f.lid(n, 0)] = {n, 0};
      continue;
    }
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      if (node.ports[p].connected()) owner[f.lid(n, p)] = {n, p};
    }
  }
  return owner;
}

// Every switch delivers every LID over the fake's LFTs; returns how many (switch, LID) entries use `port` of
// `sw` (both directions of a cable are asked separately).
unsigned deliver_and_count(const Topology& t, const test::FakeFabric& f, NodeIndex sw, PortNum port) {
  unsigned using_port = 0;
  const auto owner = owners(t, f);
  for (NodeIndex s : t.switches()) {
    for (const auto& [lid, dst] : owner) {
      if (f.lft(s, lid) == port && s == sw) ++using_port;
      NodeIndex here = s;
      bool delivered = false;
      for (unsigned hops = 0; hops <= t.switches().size(); ++hops) {
        const PortNum out = f.lft(here, lid);
        if (out == 0) {
          delivered = here == dst.first && dst.second == 0;
          break;
        }
        const Port& p = t.node(here).ports[out];
        if (!p.connected()) break;
        if (!t.node(p.peer).is_switch()) {
          delivered = p.peer == dst.first && p.peer_port == dst.second;
          break;
        }
        here = p.peer;
      }
      EXPECT_TRUE(delivered) << t.node(s).description << " LID " << lid;
    }
  }
  return using_port;
}

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
  ASSERT_GT(deliver_and_count(rig.topo, rig.fabric, leaf, port), 0u) << "minhop spreads over both spines";

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
  EXPECT_EQ(deliver_and_count(rig.topo, rig.fabric, leaf, port), 0u);
  EXPECT_EQ(deliver_and_count(rig.topo, rig.fabric, spine, spine_port), 0u);
  // The link itself is left as it was: up, both ends Active.
  EXPECT_EQ(rig.fabric.state(leaf, port), 4);
  EXPECT_EQ(rig.fabric.state(spine, spine_port), 4);

  runner.set_isolation_requests({});
  ASSERT_TRUE(runner.heavy_sweep().subnet_up);
  EXPECT_TRUE(runner.isolation().empty());
  EXPECT_GT(deliver_and_count(rig.topo, rig.fabric, leaf, port), 0u);
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
  EXPECT_GT(deliver_and_count(rig.topo, rig.fabric, leaf, port), 0u);
}

}  // namespace
}  // namespace smd
