// The FIB eBGP installs (routing/roce/bgp_fib.h) against a path-vector simulation written here: every
// switch holds a whole AS path per destination, takes the shortest path a neighbour offers that does not
// hold its own ASN (lowest router-id among equals), and the rounds repeat until nothing changes. The
// groups are then every cable to a neighbour offering a path of the chosen length. On a Clos every group
// toward a leaf must still be the whole min-hop group: the own-AS rule only takes loopbacks away.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/roce/clos_plan.h"
#include "tests/unit/routing/roce_fabrics.h"

namespace smd::roce::roce_bgp_fib_test {
namespace {

/// (port, neighbour switch index) of every switch-to-switch cable of plan switch s, port order.
std::vector<std::pair<PortNum, SwitchIndex>> cables(const Topology& topo, const RoutePlan& plan, SwitchIndex s) {
  std::vector<std::pair<PortNum, SwitchIndex>> out;
  const Node& node = topo.node(plan.switches()[s].node);
  for (PortNum p = 1; p < node.ports.size(); ++p) {
    const Port& port = node.ports[p];
    if (!port.connected() || port.peer == plan.switches()[s].node || !topo.node(port.peer).is_switch()) continue;
    for (SwitchIndex n = 0; n < plan.switches().size(); ++n) {
      if (plan.switches()[n].node == port.peer) out.emplace_back(p, n);
    }
  }
  return out;
}

/// The groups of every switch toward `dest` by simulating BGP's path vectors until they are stable.
std::vector<std::vector<PortNum>> simulate(const Topology& topo, const RoutePlan& plan, SwitchIndex dest) {
  const auto& sw = plan.switches();
  const std::size_t n = sw.size();
  std::vector<std::vector<SwitchIndex>> path(n);  // switches the path runs through, s first, dest last
  path[dest] = {dest};
  auto acceptable = [&](SwitchIndex s, SwitchIndex from) {
    if (path[from].empty()) return false;
    return std::none_of(path[from].begin(), path[from].end(), [&](SwitchIndex x) { return sw[x].asn == sw[s].asn; });
  };
  for (std::size_t round = 0; round <= n + 1; ++round) {
    auto next = path;
    for (SwitchIndex s = 0; s < n; ++s) {
      if (s == dest) continue;
      long best = -1;
      for (const auto& [port, peer] : cables(topo, plan, s)) {
        if (!acceptable(s, peer)) continue;
        if (best < 0 || path[peer].size() < path[best].size() ||
            (path[peer].size() == path[best].size() && sw[peer].loopback < sw[best].loopback)) {
          best = peer;
        }
      }
      next[s].clear();
      if (best >= 0) {
        next[s].push_back(s);
        next[s].insert(next[s].end(), path[best].begin(), path[best].end());
      }
    }
    if (next == path) break;
    path = std::move(next);
  }
  std::vector<std::vector<PortNum>> groups(n);
  for (SwitchIndex s = 0; s < n; ++s) {
    if (s == dest || path[s].empty()) continue;
    for (const auto& [port, peer] : cables(topo, plan, s)) {
      if (acceptable(s, peer) && path[peer].size() + 1 == path[s].size()) groups[s].push_back(port);
    }
  }
  return groups;
}

/// bgp_fib's groups equal the simulation's for every (s, d); returns how many groups the own-AS rule
/// emptied that min-hop routing fills.
std::size_t expect_fib_is_what_bgp_settles_on(const Topology& topo) {
  auto plan = RoutePlan::build(topo);
  EXPECT_TRUE(plan.ok()) << plan.error().message;
  if (!plan.ok()) return 0;
  std::size_t refused = 0;
  for (SwitchIndex d = 0; d < plan->switches().size(); ++d) {
    const auto expected = simulate(topo, *plan, d);
    for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
      const auto got = plan->fib().group(s, d);
      EXPECT_EQ(std::vector<PortNum>(got.begin(), got.end()), expected[s])
          << plan->switches()[s].name << " -> " << plan->switches()[d].name;
      refused += got.empty() && !plan->min_hop().group(s, d).empty();
    }
  }
  return refused;
}

/// On a Clos: every group toward a leaf is the whole min-hop group, and every route the plan lists has
/// a non-empty group.
void expect_every_host_prefix_on_every_shortest_path(const Topology& topo) {
  auto plan = RoutePlan::build(topo);
  ASSERT_TRUE(plan.ok());
  for (SwitchIndex d = 0; d < plan->switches().size(); ++d) {
    if (!plan->switches()[d].has_hosts) continue;
    for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
      const auto bgp = plan->fib().group(s, d);
      const auto min_hop = plan->min_hop().group(s, d);
      EXPECT_TRUE(std::equal(bgp.begin(), bgp.end(), min_hop.begin(), min_hop.end()))
          << plan->switches()[s].name << " -> " << plan->switches()[d].name;
    }
  }
  for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
    for (const Route& r : plan->switches()[s].routes) EXPECT_FALSE(plan->fib().group(s, r.dest).empty());
  }
}

TEST(RoceBgpFib, LeafSpineSpinesDoNotLearnEachOthersLoopbacks) {
  auto topo = make_leaf_spine(LeafSpineSpec{4, 2, 2, 1});
  ASSERT_TRUE(topo.ok());
  // 2 spines x 1 other spine: the only groups the own-AS rule empties.
  EXPECT_EQ(expect_fib_is_what_bgp_settles_on(*topo), 2u);
  expect_every_host_prefix_on_every_shortest_path(*topo);
  auto plan = RoutePlan::build(*topo);
  ASSERT_TRUE(plan.ok());
  std::size_t routes = 0;
  for (const auto& sw : plan->switches()) routes += sw.routes.size();
  // Leaves: 5 loopbacks + 3 host prefixes each; spines: 4 loopbacks + 4 host prefixes each.
  EXPECT_EQ(routes, 4u * 8 + 2u * 8);
  ASSERT_FALSE(plan->notes().empty());
  EXPECT_NE(plan->notes().back().find("2 of 50 shortest-path routes"), std::string::npos) << plan->notes().back();
}

TEST(RoceBgpFib, ThreeLevelTreesLoseLoopbacksOnly) {
  auto kary = make_kary_ntree(4, 3);
  ASSERT_TRUE(kary.ok());
  EXPECT_GT(expect_fib_is_what_bgp_settles_on(*kary), 0u);
  expect_every_host_prefix_on_every_shortest_path(*kary);
  auto fat = test::small_fat_tree3();
  ASSERT_TRUE(fat.ok());
  EXPECT_GT(expect_fib_is_what_bgp_settles_on(*fat), 0u);
  expect_every_host_prefix_on_every_shortest_path(*fat);
}

TEST(RoceBgpFib, NotAClosStillMatchesTheSimulation) {
  auto torus = make_torus({4, 3}, 1);
  ASSERT_TRUE(torus.ok());
  expect_fib_is_what_bgp_settles_on(*torus);
  auto random = make_random(24, 5, 2, 42);
  ASSERT_TRUE(random.ok());
  expect_fib_is_what_bgp_settles_on(*random);
}

}  // namespace
}  // namespace smd::roce::roce_bgp_fib_test
