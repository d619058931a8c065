// Fabric generators: counts against closed-form formulas, degrees, connectivity (BFS written here),
// ibsim GUIDs and the netfile round trip.
#include "routing/fabric_gen/fabric_gen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <queue>
#include <set>
#include <sstream>

#include "routing/fabric_gen/fabric_gen_builder.h"
#include "routing/netfile/netfile.h"
#include "routing/netfile/netfile_writer.h"

namespace smd::fabric_gen_test {
namespace {

std::size_t ipow(std::size_t b, unsigned e) {
  std::size_t r = 1;
  while (e-- > 0) r *= b;
  return r;
}

std::size_t cabled_ports(const Node& n) {
  std::size_t c = 0;
  for (PortNum p = 1; p <= n.num_ports; ++p) c += n.ports[p].connected() ? 1 : 0;
  return c;
}

// Hop distances from `from` over cables, -1 for unreachable.
std::vector<int> bfs(const Topology& t, NodeIndex from) {
  std::vector<int> dist(t.size(), -1);
  std::queue<NodeIndex> q;
  dist[from] = 0;
  q.push(from);
  while (!q.empty()) {
    const NodeIndex u = q.front();
    q.pop();
    for (const Port& p : t.node(u).ports) {
      if (p.connected() && dist[p.peer] < 0) {
        dist[p.peer] = dist[u] + 1;
        q.push(p.peer);
      }
    }
  }
  return dist;
}

// Invariants every generated fabric must hold: valid IB, symmetric cables, ibsim GUIDs in node order,
// host-0 first with the SM on it, all connected.
void expect_valid(const Topology& t) {
  std::size_t ca_rank = 0, sw_rank = 0;
  bool seen_switch = false;
  for (NodeIndex i = 0; i < t.size(); ++i) {
    const Node& n = t.node(i);
    ASSERT_LE(n.num_ports, 254u);
    ASSERT_EQ(n.ports.size(), n.num_ports + 1u);
    if (n.is_switch()) {
      EXPECT_EQ(n.guid, 0x200000u + sw_rank++);
      EXPECT_EQ(n.lft_cap, 30720u);
      seen_switch = true;
    } else {
      EXPECT_FALSE(seen_switch) << "hosts must precede switches (netfile order)";
      EXPECT_EQ(n.num_ports, 1u);
      EXPECT_EQ(n.guid, 0x100000u + 2 * ca_rank);  // one-port CAs: counter steps by 2
      EXPECT_EQ(n.ports[1].guid, n.guid + 1);
      EXPECT_EQ(n.description, "host-" + std::to_string(ca_rank));
      EXPECT_TRUE(n.ports[1].connected());
      ++ca_rank;
    }
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      const Port& port = n.ports[p];
      if (!port.connected()) continue;
      EXPECT_NE(port.peer, i) << n.description << " self link";
      const Port& back = t.node(port.peer).ports[port.peer_port];
      EXPECT_EQ(back.peer, i);
      EXPECT_EQ(back.peer_port, p);
      EXPECT_EQ(port.state, PortState::kActive);
    }
  }
  if (!t.cas().empty()) {
    EXPECT_EQ(t.sm_node, 0u);
    EXPECT_EQ(t.node(0).description, "host-0");
    EXPECT_EQ(t.sm_port, 1u);
  }
  for (int d : bfs(t, 0)) EXPECT_GE(d, 0) << "fabric not connected";
}

// Write, read back, compare node by node (same order, so same GUIDs too).
void expect_round_trip(const Topology& t) {
  std::ostringstream out;
  ASSERT_TRUE(write_netfile(t, out).ok());
  auto back = parse_netfile(out.str(), "generated.net");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->size(), t.size());
  EXPECT_EQ(back->link_count(), t.link_count());
  EXPECT_EQ(back->sm_node, t.sm_node);
  EXPECT_EQ(back->sm_port, t.sm_port);
  for (NodeIndex i = 0; i < t.size(); ++i) {
    const Node& a = t.node(i);
    const Node& b = back->node(i);
    ASSERT_EQ(b.description, a.description);
    EXPECT_EQ(b.guid, a.guid);
    EXPECT_EQ(b.type, a.type);
    ASSERT_EQ(b.num_ports, a.num_ports);
    for (PortNum p = 1; p <= a.num_ports; ++p) {
      EXPECT_EQ(b.ports[p].guid, a.ports[p].guid);
      EXPECT_EQ(b.ports[p].peer, a.ports[p].peer);
      EXPECT_EQ(b.ports[p].peer_port, a.ports[p].peer_port);
    }
  }
}

class KaryTree : public ::testing::TestWithParam<std::pair<unsigned, unsigned>> {};

TEST_P(KaryTree, PetriniVanneschiShape) {
  const auto [k, n] = GetParam();
  auto t = make_kary_ntree(k, n);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  EXPECT_EQ(t->cas().size(), ipow(k, n));
  EXPECT_EQ(t->switches().size(), n * ipow(k, n - 1));
  EXPECT_EQ(t->link_count(), n * ipow(k, n));
  // Every switch has 2k ports; all are cabled except the k up ports of the top level.
  std::size_t top = 0;
  for (NodeIndex s : t->switches()) {
    const Node& sw = t->node(s);
    EXPECT_EQ(sw.num_ports, 2 * k);
    const std::size_t used = cabled_ports(sw);
    if (n > 1 && sw.description.rfind("sw-L" + std::to_string(n - 1) + "-", 0) == 0) {
      EXPECT_EQ(used, k);
      ++top;
    } else {
      EXPECT_EQ(used, n == 1 ? k : 2 * k) << sw.description;
    }
  }
  if (n > 1) {
    EXPECT_EQ(top, ipow(k, n - 1));
  }
  // Any two hosts are at most 2n cables apart (up to a common ancestor and down); host i sits on
  // leaf i / k, so host-k is on the next leaf, 4 cables from host-0 via a level-1 switch.
  const std::vector<int> d0 = bfs(*t, 0);
  int far = 0;
  for (NodeIndex h : t->cas()) far = std::max(far, d0[h]);
  EXPECT_EQ(far, n == 1 ? 2 : static_cast<int>(2 * n));
  EXPECT_EQ(d0[1], 2);  // host-1 shares host-0's leaf (k >= 2)
  if (n > 1) {
    EXPECT_EQ(t->node(t->node(k).ports[1].peer).description, "sw-L0-1");
    EXPECT_EQ(d0[k], 4);
  }
  expect_round_trip(*t);
}

INSTANTIATE_TEST_SUITE_P(Shapes, KaryTree,
                         ::testing::Values(std::pair{2u, 1u}, std::pair{2u, 3u}, std::pair{3u, 2u}, std::pair{4u, 3u},
                                           std::pair{2u, 5u}));

TEST(KaryTree, RejectsImpossibleShapes) {
  EXPECT_EQ(make_kary_ntree(1, 3).error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(make_kary_ntree(128, 1).error().code, ErrorCode::kInvalidInput);  // 256 ports
  EXPECT_EQ(make_kary_ntree(4, 0).error().code, ErrorCode::kInvalidInput);
}

// ibsim numbers CAs from 0x100000, two GUIDs each (node, port 1), and switches from 0x200000, one each,
// routers from 0x300000: 2^19 hosts and 2^20 switches fit. Past them a generator used to abort on the
// duplicate GUID; now the fabric is refused with a message.
TEST(Builder, MoreNodesThanIbsimCanNumberApartAreRefused) {
  EXPECT_EQ(fabric_gen::Builder::kMaxHosts, std::size_t{1} << 19);
  EXPECT_EQ(fabric_gen::Builder::kMaxSwitches, std::size_t{1} << 20);

  fabric_gen::Builder within(2, 1);
  const NodeIndex h0 = within.add_host("h0");
  const NodeIndex h1 = within.add_host("h1");
  const NodeIndex s0 = within.add_switch("s0", 4);
  ASSERT_TRUE(within.link(h0, 1, s0, 1).ok());
  ASSERT_TRUE(within.link(h1, 1, s0, 2).ok());
  auto fine = std::move(within).finish();
  ASSERT_TRUE(fine.ok()) << fine.error().message;
  EXPECT_EQ(fine->node(h0).guid, 0x100000u);
  EXPECT_EQ(fine->node(h1).guid, 0x100002u);
  EXPECT_EQ(fine->node(s0).guid, 0x200000u);

  fabric_gen::Builder hosts(2, 1);
  for (int i = 0; i < 3; ++i) hosts.add_host("h" + std::to_string(i));
  const NodeIndex sw = hosts.add_switch("s0", 4);
  ASSERT_TRUE(hosts.link(2, 1, sw, 1).ok());  // the generator goes on as usual past the limit
  auto refused = std::move(hosts).finish();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(refused.error().message,
            "more than 2 hosts: ibsim's GUID counter for them would run into the next node type's GUIDs");

  fabric_gen::Builder switches(2, 1);
  switches.add_switch("s0", 4);
  switches.add_switch("s1", 4);
  auto too_many = std::move(switches).finish();
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.error().message.find("more than 1 switches"), std::string::npos);
}

TEST(LeafSpine, CountsDegreesAndParallelLinks) {
  LeafSpineSpec s;
  s.leaves = 5;
  s.spines = 3;
  s.hosts_per_leaf = 7;
  s.links_per_pair = 2;
  auto t = make_leaf_spine(s);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  EXPECT_EQ(t->cas().size(), 35u);
  EXPECT_EQ(t->switches().size(), 8u);
  EXPECT_EQ(t->link_count(), 35u + 5 * 3 * 2);
  for (NodeIndex s_idx : t->switches()) {
    const Node& sw = t->node(s_idx);
    std::map<NodeIndex, int> cables_to;
    for (PortNum p = 1; p <= sw.num_ports; ++p) {
      if (sw.ports[p].connected() && t->node(sw.ports[p].peer).is_switch()) ++cables_to[sw.ports[p].peer];
    }
    if (sw.description.rfind("leaf-", 0) == 0) {
      EXPECT_EQ(cabled_ports(sw), 7u + 3 * 2);
      EXPECT_EQ(cables_to.size(), 3u);
    } else {
      EXPECT_EQ(cabled_ports(sw), 5u * 2);
      EXPECT_EQ(cables_to.size(), 5u);
    }
    for (auto [peer, count] : cables_to) EXPECT_EQ(count, 2) << sw.description;
  }
  // host-7 is the first host of leaf-1.
  EXPECT_EQ(t->node(t->node(7).ports[1].peer).description, "leaf-1");
  expect_round_trip(*t);
}

TEST(LeafSpine, HostsOnTheFirstSpines) {
  LeafSpineSpec s;
  s.leaves = 3;
  s.spines = 3;
  s.hosts_per_leaf = 2;
  s.hosts_per_spine = 2;
  s.spines_with_hosts = 1;
  auto t = make_leaf_spine(s);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  EXPECT_EQ(t->cas().size(), 3u * 2 + 2);
  EXPECT_EQ(t->link_count(), 8u + 3 * 3);
  // host-6 and host-7 follow the leaves' hosts, on spine-0's ports after its three leaf cables.
  for (NodeIndex h : {NodeIndex{6}, NodeIndex{7}}) {
    const Port& p = t->node(h).ports[1];
    EXPECT_EQ(t->node(h).description, "host-" + std::to_string(h));
    EXPECT_EQ(t->node(p.peer).description, "spine-0");
    EXPECT_EQ(p.peer_port, h - 6 + 4);
  }
  for (NodeIndex sw : t->switches()) {
    if (t->node(sw).description == "spine-1") {
      EXPECT_EQ(cabled_ports(t->node(sw)), 3u);
    }
  }
  expect_round_trip(*t);
  s.spines_with_hosts = 4;
  EXPECT_EQ(make_leaf_spine(s).error().code, ErrorCode::kInvalidInput);
}

TEST(LeafSpine, RejectsTooManyPorts) {
  LeafSpineSpec s;
  s.leaves = 128;
  s.spines = 1;
  s.links_per_pair = 2;  // spine would need 256 ports
  EXPECT_EQ(make_leaf_spine(s).error().code, ErrorCode::kInvalidInput);
}

TEST(FatTree3, PartlyPopulatedLeaves) {
  FatTree3Spec s;
  s.pods = 3;
  s.leaves_per_pod = 4;
  s.aggs_per_pod = 2;
  s.cores_per_agg_group = 3;
  s.leaf_down_ports = 8;
  s.hosts_per_leaf = 6;
  s.partial_leaf_fraction = 0.25;  // 12 leaves -> the last 3 are partial
  s.partial_hosts = 2;
  auto t = make_fat_tree3(s);
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  const std::size_t hosts = 9 * 6 + 3 * 2;
  EXPECT_EQ(t->cas().size(), hosts);
  EXPECT_EQ(t->switches().size(), 12u + 3 * 2 + 2 * 3);
  EXPECT_EQ(t->link_count(), hosts + 3 * 4 * 2 + 3 * 2 * 3);
  for (NodeIndex i : t->switches()) {
    const Node& sw = t->node(i);
    const std::string& d = sw.description;
    std::size_t want = 0;
    if (d.rfind("leaf-", 0) == 0) want = (d == "leaf-9" || d == "leaf-10" || d == "leaf-11" ? 2u : 6u) + 2;
    if (d.rfind("agg-", 0) == 0) want = 4u + 3;
    if (d.rfind("core-", 0) == 0) want = 3u;
    EXPECT_EQ(cabled_ports(sw), want) << d;
  }
  expect_round_trip(*t);
}

TEST(Torus, NeighboursDifferInOneCoordinate) {
  struct Case {
    std::vector<unsigned> dims;
    std::size_t inter_switch_links;  // per dimension: N if size >= 3, N/2 if size 2, 0 if size 1
  };
  for (const Case& c : {Case{{4}, 4}, Case{{4, 4}, 32}, Case{{3, 2, 2}, 12 + 6 + 6}, Case{{5, 1}, 5}}) {
    auto t = make_torus(c.dims, 2);
    ASSERT_TRUE(t.ok()) << t.error().message;
    expect_valid(*t);
    std::size_t n = 1;
    for (unsigned d : c.dims) n *= d;
    EXPECT_EQ(t->switches().size(), n);
    EXPECT_EQ(t->cas().size(), 2 * n);
    EXPECT_EQ(t->link_count(), 2 * n + c.inter_switch_links);
    for (NodeIndex i : t->switches()) {
      const Node& sw = t->node(i);
      for (PortNum p = 1; p <= sw.num_ports; ++p) {
        if (!sw.ports[p].connected() || !t->node(sw.ports[p].peer).is_switch()) continue;
        // "sw-1-2" vs "sw-1-3": exactly one coordinate moves by +-1 modulo its size.
        std::istringstream a(sw.description.substr(3)), b(t->node(sw.ports[p].peer).description.substr(3));
        std::string xa, xb;
        int moved = 0;
        for (unsigned dim : c.dims) {
          std::getline(a, xa, '-');
          std::getline(b, xb, '-');
          const unsigned ua = std::stoul(xa), ub = std::stoul(xb);
          if (ua == ub) continue;
          ++moved;
          EXPECT_TRUE((ua + 1) % dim == ub || (ub + 1) % dim == ua) << sw.description;
        }
        EXPECT_EQ(moved, 1);
      }
    }
    expect_round_trip(*t);
  }
}

TEST(RandomGraph, ConnectedBoundedAndDeterministic) {
  for (std::uint64_t seed : {1u, 2u, 3u, 42u}) {
    auto t = make_random(40, 5, 2, seed);
    ASSERT_TRUE(t.ok()) << t.error().message;
    expect_valid(*t);
    EXPECT_EQ(t->switches().size(), 40u);
    EXPECT_EQ(t->cas().size(), 80u);
    std::size_t with_free = 0, switch_cable_ends = 0;
    for (NodeIndex i : t->switches()) {
      const Node& sw = t->node(i);
      EXPECT_EQ(sw.num_ports, 7u);
      const std::size_t to_switches = cabled_ports(sw) - 2;
      switch_cable_ends += to_switches;
      if (to_switches < 5) ++with_free;
    }
    // Filling stops only when at most one switch still has a free port, and that switch has at least
    // one cable (connected), so at most 4 of the 40*5 ends stay free; cables use ends in pairs.
    EXPECT_LE(with_free, 1u);
    EXPECT_GE(switch_cable_ends, 196u);
    EXPECT_EQ(switch_cable_ends % 2, 0u);
    expect_round_trip(*t);
  }
  auto a = make_random(30, 3, 1, 7), b = make_random(30, 3, 1, 7), c = make_random(30, 3, 1, 8);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  std::ostringstream wa, wb, wc;
  ASSERT_TRUE(write_netfile(*a, wa).ok() && write_netfile(*b, wb).ok() && write_netfile(*c, wc).ok());
  EXPECT_EQ(wa.str(), wb.str());
  EXPECT_NE(wa.str(), wc.str());
  EXPECT_EQ(make_random(10, 1, 1, 1).error().code, ErrorCode::kInvalidInput);
}

/// Group and router of a dragonfly switch, read from its name "sw-g<g>-r<r>".
std::pair<unsigned, unsigned> dragonfly_position(const Node& n) {
  unsigned g = 0, r = 0;
  EXPECT_EQ(std::sscanf(n.description.c_str(), "sw-g%u-r%u", &g, &r), 2) << n.description;
  return {g, r};
}

/// Cables between each pair of groups, and switch-to-switch cables inside groups, of a dragonfly.
struct DragonflyCount {
  std::map<std::pair<unsigned, unsigned>, unsigned> between;  // (lower group, higher group) -> cables
  std::size_t local = 0;
};

DragonflyCount count_dragonfly(const Topology& t) {
  DragonflyCount c;
  for (NodeIndex i : t.switches()) {
    const auto [gi, ri] = dragonfly_position(t.node(i));
    for (PortNum p = 1; p <= t.node(i).num_ports; ++p) {
      const Port& port = t.node(i).ports[p];
      if (!port.connected() || !t.node(port.peer).is_switch() || port.peer < i) continue;
      const auto [gj, rj] = dragonfly_position(t.node(port.peer));
      if (gi == gj) {
        EXPECT_NE(ri, rj);
        ++c.local;
      } else {
        ++c.between[{std::min(gi, gj), std::max(gi, gj)}];
      }
    }
  }
  return c;
}

TEST(Dragonfly, BalancedShapeJoinsEveryGroupPairOnce) {
  // a = 4 routers, h = 2 global links, G = a*h + 1 = 9 groups, p = 8 hosts: 288 hosts.
  auto t = make_dragonfly(DragonflySpec{9, 4, 8, 2});
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  expect_round_trip(*t);
  EXPECT_EQ(t->cas().size(), 288u);
  EXPECT_EQ(t->switches().size(), 36u);
  // hosts + 9 groups * C(4,2) local + C(9,2) global.
  EXPECT_EQ(t->link_count(), 288u + 9u * 6u + 36u);
  const DragonflyCount c = count_dragonfly(*t);
  EXPECT_EQ(c.local, 54u);
  EXPECT_EQ(c.between.size(), 36u);
  for (const auto& [pair, cables] : c.between) EXPECT_EQ(cables, 1u) << pair.first << "-" << pair.second;
  for (NodeIndex i : t->switches()) {
    const Node& n = t->node(i);
    EXPECT_EQ(n.num_ports, 8u + 3u + 2u);
    EXPECT_EQ(cabled_ports(n), 13u) << n.description;  // the balanced shape uses every port
    for (PortNum p = 1; p <= 8; ++p) EXPECT_FALSE(t->node(n.ports[p].peer).is_switch());
  }
  EXPECT_EQ(t->node(t->switches().front()).description, "sw-g0-r0");
  EXPECT_EQ(t->node(t->switches().back()).description, "sw-g8-r3");
  // Hosts switch by switch: host-8 is the first host of sw-g0-r1.
  EXPECT_EQ(t->node(t->node(8).ports[1].peer).description, "sw-g0-r1");
}

TEST(Dragonfly, FewerGroupsGetParallelCablesOrFreePorts) {
  // G = 3, a*h = 4: two full rounds, every pair joined by 2 cables, every global port used.
  auto t = make_dragonfly(DragonflySpec{3, 2, 1, 2});
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  DragonflyCount c = count_dragonfly(*t);
  EXPECT_EQ(c.local, 3u);
  ASSERT_EQ(c.between.size(), 3u);
  for (const auto& [pair, cables] : c.between) EXPECT_EQ(cables, 2u);
  EXPECT_EQ(t->link_count(), 6u + 3u + 6u);
  // G = 4, a*h = 4: round 0 uses ports 0..2 of each group; port 3 would pair with port 5: empty.
  t = make_dragonfly(DragonflySpec{4, 2, 1, 2});
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  c = count_dragonfly(*t);
  ASSERT_EQ(c.between.size(), 6u);
  for (const auto& [pair, cables] : c.between) EXPECT_EQ(cables, 1u);
  std::size_t free_ports = 0;
  for (NodeIndex i : t->switches()) free_ports += t->node(i).num_ports - cabled_ports(t->node(i));
  EXPECT_EQ(free_ports, 4u);  // one per group
  // One group: a single full mesh, no global cables.
  t = make_dragonfly(DragonflySpec{1, 3, 2, 1});
  ASSERT_TRUE(t.ok()) << t.error().message;
  expect_valid(*t);
  EXPECT_EQ(t->link_count(), 6u + 3u);
}

TEST(Dragonfly, RefusesGroupsThatCannotAllBeJoined) {
  auto t = make_dragonfly(DragonflySpec{10, 4, 8, 2});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(t.error().message.find("--groups 10"), std::string::npos) << t.error().message;
  EXPECT_FALSE(make_dragonfly(DragonflySpec{0, 4, 8, 2}).ok());
  EXPECT_FALSE(make_dragonfly(DragonflySpec{2, 4, 8, 0}).ok());
  EXPECT_FALSE(make_dragonfly(DragonflySpec{2, 4, 250, 2}).ok());
}

TEST(SmallFabrics, SingleAndTwoSwitch) {
  auto one = make_single_switch(6);
  ASSERT_TRUE(one.ok());
  expect_valid(*one);
  EXPECT_EQ(one->link_count(), 6u);
  EXPECT_EQ(one->switches().size(), 1u);

  auto two = make_two_switch(3, 2);
  ASSERT_TRUE(two.ok());
  expect_valid(*two);
  EXPECT_EQ(two->cas().size(), 4u);
  EXPECT_EQ(two->link_count(), 3u + 4);
  const Node& sw0 = two->node(two->switches()[0]);
  for (PortNum p = 1; p <= 3; ++p) {
    EXPECT_EQ(sw0.ports[p].peer, two->switches()[1]);
    EXPECT_EQ(sw0.ports[p].peer_port, p);
  }
  EXPECT_EQ(two->node(two->node(2).ports[1].peer).description, "sw-1");  // host-2 is on sw-1
  expect_round_trip(*two);
  EXPECT_EQ(make_single_switch(255).error().code, ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace smd::fabric_gen_test

namespace smd::fabric_gen_test {
namespace {

TEST(TorusDims, ParsesSizesSeparatedByX) {
  EXPECT_EQ(parse_torus_dims("4").value(), (std::vector<unsigned>{4}));
  EXPECT_EQ(parse_torus_dims("4x4x2").value(), (std::vector<unsigned>{4, 4, 2}));
  EXPECT_EQ(parse_torus_dims("8X3").value(), (std::vector<unsigned>{8, 3}));
}

TEST(TorusDims, RefusesMalformedDims) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c :
       {Case{"4x", "--dims '4x': expected a size after 'x' at character 3"},
        Case{"x4", "--dims 'x4': expected a size at character 1"},
        Case{"", "--dims '': expected a size at character 1"},
        Case{"4xx4", "--dims '4xx4': expected a size after 'x' at character 3"},
        Case{"4x4x4x4", "--dims '4x4x4x4': at most 3 dimensions"},
        Case{"4y4", "--dims '4y4': unexpected 'y' at character 2 (sizes are separated by 'x', like 4x4x2)"},
        Case{"0x4", "--dims '0x4': size 0 outside 1..4096"},
        Case{"4x5000", "--dims '4x5000': size 5000 outside 1..4096"},
        Case{"4x99999999999999999999", "--dims '4x99999999999999999999': size 99999999999999999999 outside 1..4096"}}) {
    auto r = parse_torus_dims(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(r.error().message, c.message);
  }
}

}  // namespace
}  // namespace smd::fabric_gen_test

namespace smd::fabric_gen_test {
namespace {

// Port sums near 2^32 must not wrap past the 254-port check (a wrapped sum made the generators allocate
// billions of hosts or loop forever).
TEST(GeneratorLimits, HugeCountsAreRefusedNotWrapped) {
  constexpr unsigned kHuge = 4294967295u;
  EXPECT_EQ(make_torus({4, 4}, kHuge).error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(make_torus({4}, kHuge - 1).error().message.find("exceeds 254 ports"), std::string::npos);
  EXPECT_EQ(make_random(4, 3, kHuge, 1).error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(make_random(4, kHuge, 2, 1).error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(make_two_switch(1, kHuge).error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(make_two_switch(kHuge, 1).error().code, ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace smd::fabric_gen_test
