// The RoCE L3 Clos plan: ECMP groups (and their HopGroups re-layout) against shortest-path next-hop
// sets found by a BFS written here over the raw Topology, and the address / ASN / FRR invariants of docs/roce.md.
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <set>
#include <string>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/roce/clos_plan.h"
#include "routing/roce/frr_writer.h"
#include "routing/roce/hop_groups.h"
#include "tests/unit/routing/roce_fabrics.h"

namespace smd::roce::roce_fib_test {
namespace {

/// Switch-to-switch hop counts from `dest` by BFS over the Topology's ports (independent of HopTable).
std::map<NodeIndex, int> bfs_from(const Topology& topo, NodeIndex dest) {
  std::map<NodeIndex, int> dist{{dest, 0}};
  std::deque<NodeIndex> queue{dest};
  while (!queue.empty()) {
    const NodeIndex n = queue.front();
    queue.pop_front();
    for (const Port& p : topo.node(n).ports) {
      if (!p.connected() || !topo.node(p.peer).is_switch() || dist.count(p.peer)) continue;
      dist[p.peer] = dist[n] + 1;
      queue.push_back(p.peer);
    }
  }
  return dist;
}

/// For every ordered switch pair: the min-hop group = the ports of s whose switch neighbour is one hop
/// closer to d.
void expect_groups_are_shortest_paths(const Topology& topo) {
  auto plan = RoutePlan::build(topo);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const HopGroups by_destination(plan->min_hop());  // the comparison's layout of the same groups
  const auto& sw = topo.switches();
  std::size_t nonempty = 0;
  for (std::size_t d = 0; d < sw.size(); ++d) {
    const auto dist = bfs_from(topo, sw[d]);
    for (std::size_t s = 0; s < sw.size(); ++s) {
      std::set<PortNum> expected;
      const Node& node = topo.node(sw[s]);
      if (s != d && dist.count(sw[s])) {
        for (PortNum p = 1; p < node.ports.size(); ++p) {
          const Port& port = node.ports[p];
          if (port.connected() && port.peer != sw[s] && topo.node(port.peer).is_switch() &&
              dist.at(port.peer) == dist.at(sw[s]) - 1) {
            expected.insert(p);
          }
        }
      }
      const auto group = plan->min_hop().group(static_cast<SwitchIndex>(s), static_cast<SwitchIndex>(d));
      const std::set<PortNum> got(group.begin(), group.end());
      EXPECT_EQ(got, expected) << node.description << " -> " << topo.node(sw[d]).description;
      EXPECT_EQ(got.size(), group.size()) << "duplicate member";
      const auto same = by_destination.group(static_cast<SwitchIndex>(s), static_cast<SwitchIndex>(d));
      EXPECT_EQ(std::vector<PortNum>(same.begin(), same.end()), std::vector<PortNum>(group.begin(), group.end()));
      nonempty += !group.empty();
    }
  }
  EXPECT_GT(nonempty, 0u);
}

TEST(RoceFib, GroupsAreShortestPathSetsOnLeafSpineWithParallelCables) {
  auto topo = make_leaf_spine(LeafSpineSpec{4, 3, 2, 2});
  ASSERT_TRUE(topo.ok());
  expect_groups_are_shortest_paths(*topo);
  // Leaf-0 to leaf-1: 3 spines x 2 parallel cables = 6 separate members, the uplinks 3..8.
  auto plan = RoutePlan::build(*topo);
  ASSERT_TRUE(plan.ok());
  const auto g = plan->fib().group(0, 1);
  EXPECT_EQ(std::vector<PortNum>(g.begin(), g.end()), (std::vector<PortNum>{3, 4, 5, 6, 7, 8}));
}

TEST(RoceFib, GroupsAreShortestPathSetsOnFatTreeTorusAndRandom) {
  auto tree = make_kary_ntree(3, 3);
  ASSERT_TRUE(tree.ok());
  expect_groups_are_shortest_paths(*tree);
  auto torus = make_torus({4, 3}, 1);
  ASSERT_TRUE(torus.ok());
  expect_groups_are_shortest_paths(*torus);
  auto random = make_random(24, 5, 2, 42);
  ASSERT_TRUE(random.ok());
  expect_groups_are_shortest_paths(*random);
}

TEST(RoceAddressing, CablesLoopbacksAndHostPrefixesAreConsistent) {
  auto topo = make_leaf_spine(LeafSpineSpec{5, 2, 3, 2});
  ASSERT_TRUE(topo.ok());
  auto plan = RoutePlan::build(*topo);
  ASSERT_TRUE(plan.ok());
  std::set<std::uint32_t> addresses;
  std::size_t interfaces = 0;
  for (std::size_t s = 0; s < plan->switches().size(); ++s) {
    const auto& sp = plan->switches()[s];
    EXPECT_TRUE(addresses.insert(sp.loopback).second) << "loopback reused";
    for (const auto& itf : sp.interfaces) {
      ++interfaces;
      EXPECT_EQ(itf.local_ip ^ itf.peer_ip, 1u) << "the two ends of a /31 differ in the last bit only";
      EXPECT_TRUE(addresses.insert(itf.local_ip).second) << "cable address reused";
      // The far end holds the mirror image.
      bool mirrored = false;
      for (const auto& back : plan->switches()[itf.peer].interfaces) {
        mirrored |= back.port == itf.peer_port && back.local_ip == itf.peer_ip && back.peer_ip == itf.local_ip;
      }
      EXPECT_TRUE(mirrored);
    }
  }
  // 5 leaves x 2 spines x 2 parallel cables, seen from both ends.
  EXPECT_EQ(interfaces, 2u * 5 * 2 * 2);
  ASSERT_EQ(plan->hosts().size(), 15u);
  for (const auto& h : plan->hosts()) {
    const auto& leaf = plan->switches()[h.leaf];
    ASSERT_TRUE(leaf.has_hosts);
    const std::uint32_t mask = ~0u << (32 - leaf.host_prefix.len);
    EXPECT_EQ(h.ip & mask, leaf.host_prefix.addr) << "host outside its leaf's prefix";
    EXPECT_NE(h.ip, leaf.gateway);
    EXPECT_TRUE(addresses.insert(h.ip).second) << "host address reused";
    EXPECT_EQ(plan->host_index(h.ca, h.port), &h - plan->hosts().data());
  }
  EXPECT_EQ(format_prefix(plan->switches()[0].host_prefix), "10.0.0.0/24");
  EXPECT_EQ(format_ipv4(plan->hosts()[0].ip), "10.0.0.2");
  // A leaf routes to the 6 other loopbacks and the 4 other host prefixes; a spine to the 5 leaves'
  // loopbacks and host prefixes but not to the other spine's loopback: the spines share an AS, and
  // every path between them crosses it (BGP's own-AS rule, bgp_fib.h).
  EXPECT_EQ(plan->switches()[0].routes.size(), 6u + 4u);  // a leaf
  EXPECT_EQ(plan->switches()[5].routes.size(), 5u + 5u);  // a spine
}

TEST(RoceAddressing, AsnPerLeafPerPodAndOneForTheTop) {
  auto topo = test::small_fat_tree3();
  ASSERT_TRUE(topo.ok());
  auto plan = RoutePlan::build(*topo);
  ASSERT_TRUE(plan.ok());
  std::set<std::uint32_t> leaf_asns;
  std::map<std::string, std::set<std::uint32_t>> agg_asns_by_pod;
  std::set<std::uint32_t> core_asns, all_agg_asns;
  for (const auto& sp : plan->switches()) {
    if (sp.name.rfind("leaf-", 0) == 0) {
      EXPECT_EQ(sp.tier, 0);
      EXPECT_TRUE(leaf_asns.insert(sp.asn).second) << "leaf ASNs must be unique";
      EXPECT_GE(sp.asn, 4200000000u);
      EXPECT_LT(sp.asn, 4200100000u);
    } else if (sp.name.rfind("agg-", 0) == 0) {
      EXPECT_EQ(sp.tier, 1);
      const std::string pod = sp.name.substr(4, sp.name.find('-', 4) - 4);
      agg_asns_by_pod[pod].insert(sp.asn);
      all_agg_asns.insert(sp.asn);
    } else {
      EXPECT_EQ(sp.tier, 2);
      core_asns.insert(sp.asn);
    }
  }
  EXPECT_EQ(leaf_asns.size(), 6u);
  ASSERT_EQ(agg_asns_by_pod.size(), 3u);
  for (const auto& [pod, asns] : agg_asns_by_pod) EXPECT_EQ(asns.size(), 1u) << "pod " << pod;
  EXPECT_EQ(all_agg_asns.size(), 3u) << "one ASN per pod";
  EXPECT_EQ(core_asns, (std::set<std::uint32_t>{4200200000u}));
}

TEST(RoceFrr, LeafConfigHasBgpNeighboursNetworksAndMultipath) {
  auto topo = make_leaf_spine(LeafSpineSpec{3, 2, 2, 1});
  ASSERT_TRUE(topo.ok());
  auto plan = RoutePlan::build(*topo);
  ASSERT_TRUE(plan.ok());
  const auto names = switch_dir_names(*plan);
  const std::string conf = frr_config(*plan, 0, names[0]);
  const auto& leaf = plan->switches()[0];
  EXPECT_NE(conf.find("router bgp " + std::to_string(leaf.asn) + "\n"), std::string::npos);
  EXPECT_NE(conf.find("bgp bestpath as-path multipath-relax"), std::string::npos);
  EXPECT_NE(conf.find("maximum-paths 2\n"), std::string::npos);
  EXPECT_NE(conf.find("\nip forwarding\n"), std::string::npos);
  EXPECT_NE(conf.find("\nhostname " + leaf.hostname + "\n"), std::string::npos);
  EXPECT_EQ(conf.find("allowas-in"), std::string::npos) << "the own-AS rule is kept (docs/roce.md)";
  EXPECT_NE(conf.find("network " + format_prefix(leaf.host_prefix)), std::string::npos);
  EXPECT_NE(conf.find("network " + format_ipv4(leaf.loopback) + "/32"), std::string::npos);
  std::size_t neighbours = 0;
  for (std::size_t at = conf.find(" remote-as "); at != std::string::npos; at = conf.find(" remote-as ", at + 1)) {
    ++neighbours;
  }
  EXPECT_EQ(neighbours, 2u);
  // Both spines share one ASN (RFC 7938 5.2.1), so the leaf peers with the same remote AS twice.
  EXPECT_EQ(plan->switches()[3].asn, plan->switches()[4].asn);
  EXPECT_NE(conf.find("remote-as " + std::to_string(plan->switches()[3].asn)), std::string::npos);
}

}  // namespace
}  // namespace smd::roce::roce_fib_test
