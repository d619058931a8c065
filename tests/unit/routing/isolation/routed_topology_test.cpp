// routed_topology (routing/isolation/routed_topology.h): drains and health requests on the hand-drawn
// two-spine tree, every expected cable and pair read off the drawing in two_spine_fabric.h.
#include "routing/isolation/routed_topology.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/routing/two_spine_fabric.h"

namespace smd::routed_topology_test {
namespace {

using test::TwoSpineFabric;

bool cabled(const Topology& t, NodeIndex n, PortNum p) { return t.node(n).ports[p].connected(); }

TEST(RoutedTopology, ADrainedSwitchLosesEveryCableOthersKeepTheirs) {
  TwoSpineFabric f;
  const std::vector<CableEnd> drains{{f.s0, 0}};
  const RoutedTopology r = routed_topology(f.t, drains, {});
  EXPECT_EQ(r.drained.size(), 2u);  // S0 has two cables: to L0 and to L1
  EXPECT_FALSE(cabled(r.topo, f.s0, 1));
  EXPECT_FALSE(cabled(r.topo, f.l0, 1));
  EXPECT_FALSE(cabled(r.topo, f.l1, 1));
  EXPECT_TRUE(cabled(r.topo, f.l0, 2));
  EXPECT_TRUE(cabled(r.topo, f.h0, 1));
  EXPECT_EQ(r.topo.size(), f.t.size());  // node indexes kept
  EXPECT_FALSE(first_separated_pair(f.t, r.topo).has_value());
}

TEST(RoutedTopology, ACableNamedFromBothEndsAndItsSwitchCountsOnce) {
  TwoSpineFabric f;
  const std::vector<CableEnd> drains{{f.l0, 1}, {f.s0, 1}, {f.s0, 0}};
  EXPECT_EQ(drained_cables(f.t, drains).size(), 2u);
}

TEST(RoutedTopology, PortZeroOfACaDrainsNothing) {
  // A hand-edited drain file may name a CA whole; the grammar never does. h0 keeps its one cable.
  TwoSpineFabric f;
  const std::vector<CableEnd> drains{{f.h0, 0}};
  EXPECT_TRUE(drained_cables(f.t, drains).empty());
  const RoutedTopology r = routed_topology(f.t, drains, {});
  EXPECT_TRUE(cabled(r.topo, f.h0, 1));
  EXPECT_FALSE(first_separated_pair(f.t, r.topo).has_value());
}

TEST(RoutedTopology, HealthIsDecidedOnTheDrainedFabric) {
  TwoSpineFabric f;
  // Alone, L0-S1 could be isolated (S0 still joins the leaves); with S0 drained it is L0's last way up.
  const std::vector<CableEnd> health{{f.l0, 2}};
  EXPECT_TRUE(routed_topology(f.t, {}, health).health.at(0).isolated);
  const std::vector<CableEnd> drains{{f.s0, 0}};
  const RoutedTopology r = routed_topology(f.t, drains, health);
  ASSERT_EQ(r.health.size(), 1u);
  EXPECT_FALSE(r.health[0].isolated);
  EXPECT_NE(r.health[0].reason.find("would"), std::string::npos) << r.health[0].reason;
  EXPECT_TRUE(cabled(r.topo, f.l0, 2));
  EXPECT_FALSE(first_separated_pair(f.t, r.topo).has_value());
}

TEST(RoutedTopology, BothSpinesDrainedSeparateTheLeavesHosts) {
  TwoSpineFabric f;
  const std::vector<CableEnd> drains{{f.s0, 0}, {f.s1, 0}};
  const RoutedTopology r = routed_topology(f.t, drains, {});
  const auto pair = first_separated_pair(f.t, r.topo);
  ASSERT_TRUE(pair.has_value());
  // The first by node index: h0 with the first host of the other leaf, h2.
  EXPECT_EQ(pair->first, (CableEnd{f.h0, 1}));
  EXPECT_EQ(pair->second, (CableEnd{f.h2, 1}));
}

TEST(RoutedTopology, AHostsOwnCableDrainedSeparatesIt) {
  TwoSpineFabric f;
  const std::vector<CableEnd> drains{{f.h3, 1}};
  const auto pair = first_separated_pair(f.t, routed_topology(f.t, drains, {}).topo);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first, (CableEnd{f.h0, 1}));
  EXPECT_EQ(pair->second, (CableEnd{f.h3, 1}));
}

TEST(RoutedTopology, OutOfRangeDrainsAreSkipped) {
  TwoSpineFabric f;
  const std::vector<CableEnd> drains{{static_cast<NodeIndex>(f.t.size() + 3), 0}, {f.l0, 60}, {f.s0, 3}};
  EXPECT_TRUE(drained_cables(f.t, drains).empty());  // no such node, no such port, an uncabled port
}

}  // namespace
}  // namespace smd::routed_topology_test
