// torus-2QoS on tori and meshes from routing/fabric_gen, whose switch names give each switch's
// coordinates ("sw-<x>-<y>") independently of the engine's placement: routes are dimension-ordered and as
// long as the ring distances, the SL of a path has the bits of the dimensions whose shorter way wraps
// (computed here by hand), the SL2VL maps by output direction, the verifier accepts the per-hop VLs and
// refuses the same routes when the SL2VL keeps only the x bit, a cut cable is routed the long way round
// with the pristine SL, and a ring cut twice or a missing switch is declined with the place named.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "routing/engines/torus_2qos/torus_2qos.h"
#include "routing/engines/torus_2qos/torus_2qos_factory.h"
#include "routing/engines/torus_2qos/torus_conf.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::torus_2qos_test {
namespace {

using testing::assign_test_lids;

NodeIndex by_name(const Topology& topo, const std::string& name) {
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    if (topo.node(n).description == name) return n;
  }
  ADD_FAILURE() << "no node " << name;
  return 0;
}

/// [x, y, z] of a switch from its fabric_gen name.
std::array<unsigned, 3> coords_of(const Topology& topo, NodeIndex n) {
  std::array<unsigned, 3> c{};
  const std::string& d = topo.node(n).description;
  std::size_t at = 3;  // after "sw-"
  for (unsigned k = 0; k < 3 && at < d.size(); ++k) {
    const std::size_t dash = d.find('-', at);
    c[k] = static_cast<unsigned>(std::stoul(d.substr(at, dash - at)));
    at = dash == std::string::npos ? d.size() : dash + 1;
  }
  return c;
}

/// A geometry seeded at sw-0-0(-0) with + (and - where a ring of 4 needs it) links.
Torus2QosOptions options_for(const Topology& topo, std::array<unsigned, 3> radix, bool mesh = false) {
  Torus2QosOptions o;
  o.geometry.radix = radix;
  const bool three = radix[2] > 1;
  const auto name = [&](unsigned x, unsigned y, unsigned z) {
    return "sw-" + std::to_string(x) + "-" + std::to_string(y) + (three ? "-" + std::to_string(z) : "");
  };
  TorusSeed seed;
  seed.origin = topo.node(by_name(topo, name(0, 0, 0))).guid;
  for (unsigned d = 0; d < 3; ++d) {
    o.geometry.ring[d] = !mesh;
    if (radix[d] < 2) continue;
    std::array<unsigned, 3> plus{};
    plus[d] = 1;
    seed.neighbour[2 * d + 1] = topo.node(by_name(topo, name(plus[0], plus[1], plus[2]))).guid;
    if (!mesh && radix[d] == 4) {
      std::array<unsigned, 3> minus{};
      minus[d] = radix[d] - 1;
      seed.neighbour[2 * d] = topo.node(by_name(topo, name(minus[0], minus[1], minus[2]))).guid;
    }
  }
  o.geometry.seeds.push_back(seed);
  return o;
}

Result<RoutingTables> route(const Topology& topo, const LidMap& lids, const Torus2QosOptions& o, std::uint8_t vls) {
  RoutingOptions r;
  r.data_vls = vls;
  r.engines.set(o);
  return torus_2qos_factory().create(r)->compute(topo, lids);
}

/// SL bits by hand: bit d when going round the wrap is strictly shorter than going direct.
unsigned expected_sl(std::array<unsigned, 3> a, std::array<unsigned, 3> b, std::array<unsigned, 3> radix) {
  unsigned sl = 0;
  for (unsigned d = 0; d < 3; ++d) {
    const unsigned direct = a[d] > b[d] ? a[d] - b[d] : b[d] - a[d];
    if (radix[d] - direct < direct) sl |= 1u << d;
  }
  return sl;
}

/// Every switch-to-switch route moves x first, then y, then z, one ring step at a time, as many steps as
/// the ring distance; and its SL is expected_sl.
void expect_dor(const Topology& topo, const LidMap& lids, const RoutingTables& t, std::array<unsigned, 3> radix) {
  for (NodeIndex s : topo.switches()) {
    for (NodeIndex d : topo.switches()) {
      const Lid lid = lids.base_lid(d, 0);
      const auto r = testing::walk(topo, lids, t, s, lid);
      ASSERT_EQ(r.error, "") << topo.node(s).description << " -> " << topo.node(d).description;
      unsigned dim_seen = 0;
      unsigned want_hops = 0;
      const auto a = coords_of(topo, s);
      const auto b = coords_of(topo, d);
      for (unsigned k = 0; k < 3; ++k) {
        const unsigned direct = a[k] > b[k] ? a[k] - b[k] : b[k] - a[k];
        want_hops += std::min(direct, radix[k] - direct);
      }
      EXPECT_EQ(r.switches.size() - 1, want_hops) << topo.node(s).description << " -> " << topo.node(d).description;
      for (std::size_t i = 1; i < r.switches.size(); ++i) {
        const auto p = coords_of(topo, r.switches[i - 1]);
        const auto q = coords_of(topo, r.switches[i]);
        unsigned moved = 3;
        for (unsigned k = 0; k < 3; ++k) {
          if (p[k] != q[k]) moved = k;
        }
        ASSERT_LT(moved, 3u);
        EXPECT_GE(moved, dim_seen) << "turn back from dimension " << dim_seen << " to " << moved;
        dim_seen = moved;
      }
      EXPECT_EQ(t.layering->layer_of(s, lid), expected_sl(a, b, radix))
          << topo.node(s).description << " -> " << topo.node(d).description;
    }
  }
}

void cut(Topology& topo, NodeIndex a, PortNum pa) {
  Port& p = topo.mutable_node(a).ports[pa];
  Port& q = topo.mutable_node(p.peer).ports[p.peer_port];
  q.peer = kNoNode;
  q.peer_port = 0;
  p.peer = kNoNode;
  p.peer_port = 0;
}

TEST(Torus2Qos, PristineTorus5x5IsDimensionOrderedWithDatelineSls) {
  auto topo = make_torus({5, 5}, 1);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto t = route(*topo, lids, options_for(*topo, {5, 5, 1}), 2);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->engine, "torus-2QoS");
  EXPECT_TRUE(t->deadlock_free);
  ASSERT_TRUE(t->layering && t->layering->per_hop());
  expect_dor(*topo, lids, *t, {5, 5, 1});
  // By hand: sw-0-0 -> sw-3-0 wraps x (0,4,3: 2 hops against 3), SL 1; sw-1-1 -> sw-2-4 goes direct
  // along x and wraps y (1,0,4), SL 2; sw-1-1 -> sw-3-3 wraps neither, SL 0.
  const NodeIndex s00 = by_name(*topo, "sw-0-0");
  const NodeIndex s11 = by_name(*topo, "sw-1-1");
  EXPECT_EQ(t->layering->layer_of(s00, lids.base_lid(by_name(*topo, "sw-3-0"), 0)), 1);
  EXPECT_EQ(t->layering->layer_of(s11, lids.base_lid(by_name(*topo, "sw-2-4"), 0)), 2);
  EXPECT_EQ(t->layering->layer_of(s11, lids.base_lid(by_name(*topo, "sw-3-3"), 0)), 0);
  auto rep = verify_tables(*topo, lids, *t, true);
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_TRUE(rep->deadlock_free);
  EXPECT_EQ(rep->layers, 2u);
}

TEST(Torus2Qos, Sl2VlMapsByOutputDirection) {
  auto topo = make_torus({5, 5}, 1);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto t = route(*topo, lids, options_for(*topo, {5, 5, 1}), 8);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const HopSl2Vl& h = *t->layering->hop_sl2vl();
  // fabric_gen: host on port 1, x+ 2, x- 3, y+ 4, y- 5.
  const NodeIndex s = by_name(*topo, "sw-2-2");
  for (PortNum x_out : {2, 3}) {
    EXPECT_EQ(h.vl(s, 1, x_out, 1), 1) << x_out;  // SL bit 0 (x dateline) -> VL bit 0 along x
    EXPECT_EQ(h.vl(s, 1, x_out, 2), 0) << x_out;  // the y bit does not matter along x
    EXPECT_EQ(h.vl(s, 1, x_out, 8), 4) << x_out;  // SL bit 3 (QoS) -> VL bit 2 with 8 VLs
  }
  for (PortNum y_out : {4, 5}) {
    EXPECT_EQ(h.vl(s, 1, y_out, 2), 1) << y_out;
    EXPECT_EQ(h.vl(s, 1, y_out, 1), 0) << y_out;
    EXPECT_EQ(h.vl(s, 2, y_out, 3), 1) << y_out;  // x -> y: a DOR turn, VL bit 1 clear
  }
  EXPECT_EQ(h.vl(s, 4, 2, 0), 2);  // y -> x: the turn DOR never makes, VL bit 1 (input port dependence)
  EXPECT_EQ(h.vl(s, 2, 1, 7), 0);  // to the host: the QoS bit only
  EXPECT_EQ(h.vl(s, 2, 1, 9), 1);
  const NodeIndex host = topo->node(s).ports[1].peer;
  EXPECT_EQ(h.vl(host, 0, 1, 3), 0);
  // The tables map to VLs 0-7, but DOR routes take only bit 0: the verifier counts the VLs hops take.
  auto rep = verify_tables(*topo, lids, *t, true);
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->layers, 2u);
}

TEST(Torus2Qos, VerifierRefusesTheRoutesWhenSl2VlKeepsOnlyTheXBit) {
  auto topo = make_torus({5, 5}, 1);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto t = route(*topo, lids, options_for(*topo, {5, 5, 1}), 2);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_TRUE(verify_tables(*topo, lids, *t, true).ok());
  // Same LFTs and SLs, but VL = SL bit 0 at every hop (an SL2VL that ignores the output direction):
  // the y rings' paths that do and do not cross the dateline share VL 0 and close a cycle.
  auto hops = std::make_shared<HopSl2Vl>(topo->size());
  for (NodeIndex n = 0; n < topo->size(); ++n) {
    hops->set_classes(n, std::vector<std::uint8_t>(topo->node(n).num_ports + 1u, 0), 1);
    HopVlMap m{};
    for (unsigned sl = 0; sl < 16; ++sl) m[sl] = static_cast<std::uint8_t>(sl & 1);
    for (PortNum p = 0; p <= topo->node(n).num_ports; ++p) hops->set(n, 0, p, m);
  }
  VlLayering bad = *t->layering;
  bad.set_hop_sl2vl(hops);
  RoutingTables wrong = *t;
  wrong.layering = std::make_shared<const VlLayering>(bad);
  auto rep = verify_tables(*topo, lids, wrong, true);
  ASSERT_FALSE(rep.ok());
  EXPECT_NE(rep.error().message.find("cycle of virtual channels"), std::string::npos) << rep.error().message;
  EXPECT_NE(rep.error().message.find("] VL 0"), std::string::npos) << rep.error().message;
}

TEST(Torus2Qos, Torus4x4AndMeshAnd3dAreDeadlockFree) {
  struct Case {
    std::vector<unsigned> dims;
    std::array<unsigned, 3> radix;
    bool mesh;
    std::uint8_t vls;
  };
  for (const Case& c : {Case{{4, 4}, {4, 4, 1}, false, 2}, Case{{3, 4}, {3, 4, 1}, true, 1},
                        Case{{3, 3, 3}, {3, 3, 3}, false, 2}, Case{{4, 4, 4}, {4, 4, 4}, false, 4}}) {
    auto topo = c.mesh ? make_mesh(c.dims, 1) : make_torus(c.dims, 1);
    ASSERT_TRUE(topo.ok());
    const LidMap lids = assign_test_lids(*topo);
    auto t = route(*topo, lids, options_for(*topo, c.radix, c.mesh), c.vls);
    ASSERT_TRUE(t.ok()) << t.error().message;
    if (!c.mesh) expect_dor(*topo, lids, *t, c.radix);
    auto rep = verify_tables(*topo, lids, *t, true);
    ASSERT_TRUE(rep.ok()) << rep.error().message;
    EXPECT_TRUE(rep->deadlock_free) << c.radix[0] << "x" << c.radix[1] << "x" << c.radix[2];
  }
}

TEST(Torus2Qos, TorusNeedsTwoDataVls) {
  auto topo = make_torus({5, 5}, 1);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  auto t = route(*topo, lids, options_for(*topo, {5, 5, 1}), 1);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeclined);
}

TEST(Torus2Qos, CutCableIsRoutedTheLongWayWithThePristineSl) {
  auto topo = make_torus({5, 5}, 1);
  ASSERT_TRUE(topo.ok());
  const NodeIndex s10 = by_name(*topo, "sw-1-0");
  cut(*topo, s10, 2);  // sw-1-0 x+ <-> sw-2-0 x-
  const LidMap lids = assign_test_lids(*topo);
  auto t = route(*topo, lids, options_for(*topo, {5, 5, 1}), 2);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const Lid to = lids.base_lid(by_name(*topo, "sw-2-0"), 0);
  const auto r = testing::walk(*topo, lids, *t, s10, to);
  ASSERT_EQ(r.error, "");
  std::vector<std::string> names;
  for (NodeIndex n : r.switches) names.push_back(topo->node(n).description);
  EXPECT_EQ(names, (std::vector<std::string>{"sw-1-0", "sw-0-0", "sw-4-0", "sw-3-0", "sw-2-0"}));
  EXPECT_EQ(t->layering->layer_of(s10, to), 0);  // the pristine path 1 -> 2 does not cross the dateline
  auto rep = verify_tables(*topo, lids, *t, true);
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_TRUE(rep->deadlock_free);
}

TEST(Torus2Qos, RingCutTwiceAndMissingSwitchAreDeclined) {
  auto topo = make_torus({5, 5}, 1);
  ASSERT_TRUE(topo.ok());
  cut(*topo, by_name(*topo, "sw-1-0"), 2);
  cut(*topo, by_name(*topo, "sw-3-0"), 2);
  const LidMap lids = assign_test_lids(*topo);
  auto t = route(*topo, lids, options_for(*topo, {5, 5, 1}), 2);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().code, ErrorCode::kDeclined);
  EXPECT_NE(t.error().message.find("the ring along x through (0,0,0)"), std::string::npos) << t.error().message;
  EXPECT_NE(t.error().message.find("broken into 2 pieces"), std::string::npos) << t.error().message;

  auto whole = make_torus({5, 5}, 1);
  ASSERT_TRUE(whole.ok());
  const NodeIndex s22 = by_name(*whole, "sw-2-2");
  for (PortNum p = 2; p <= 5; ++p) cut(*whole, s22, p);
  const LidMap lids2 = assign_test_lids(*whole);
  auto u = route(*whole, lids2, options_for(*whole, {5, 5, 1}), 2);
  ASSERT_FALSE(u.ok());
  EXPECT_EQ(u.error().code, ErrorCode::kDeclined);
  EXPECT_NE(u.error().message.find("no switch at (2,2,0)"), std::string::npos) << u.error().message;
}

TEST(Torus2Qos, DatelineMovesTheSl) {
  auto topo = make_torus({5, 5}, 1);
  ASSERT_TRUE(topo.ok());
  const LidMap lids = assign_test_lids(*topo);
  Torus2QosOptions o = options_for(*topo, {5, 5, 1});
  o.geometry.seeds[0].dateline[0] = 2;  // sw-0-0 at x = 3: the x dateline lies between sw-1-* and sw-2-*
  auto t = route(*topo, lids, o, 2);
  ASSERT_TRUE(t.ok()) << t.error().message;
  // sw-1-0 -> sw-2-0 now crosses it (x 4 -> 0 in the moved coordinates): SL 1; sw-0-0 -> sw-3-0 no longer.
  EXPECT_EQ(t->layering->layer_of(by_name(*topo, "sw-1-0"), lids.base_lid(by_name(*topo, "sw-2-0"), 0)), 1);
  EXPECT_EQ(t->layering->layer_of(by_name(*topo, "sw-0-0"), lids.base_lid(by_name(*topo, "sw-3-0"), 0)), 0);
  ASSERT_TRUE(verify_tables(*topo, lids, *t, true).ok());
}

TEST(Torus2QosConf, ParsesOpenSmsFormat) {
  auto g = parse_torus_conf(
      "# a 2D torus\ntorus 1 4 5M\nyp_link 0x200000 0x200005 # y+\nym_link 0x200000 0x20000f\n"
      "zp_link 0x200000 0x200001\ny_dateline -2\nnext_seed\nyp_link 0x20000b 0x200010\nport_order 7 10 7 8\n",
      "t.conf");
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->radix, (std::array<unsigned, 3>{1, 4, 5}));
  EXPECT_EQ(g->ring, (std::array<bool, 3>{true, true, false}));
  ASSERT_EQ(g->seeds.size(), 2u);
  EXPECT_EQ(g->seeds[0].origin, 0x200000u);
  EXPECT_EQ(g->seeds[0].neighbour[3], 0x200005u);
  EXPECT_EQ(g->seeds[0].neighbour[2], 0x20000fu);
  EXPECT_EQ(g->seeds[0].neighbour[5], 0x200001u);
  EXPECT_EQ(g->seeds[0].dateline[1], -2);
  EXPECT_EQ(g->seeds[1].origin, 0x20000bu);
  EXPECT_EQ(g->port_order, (std::vector<PortNum>{7, 10, 8}));
}

TEST(Torus2QosConf, ErrorsNameLineAndColumn) {
  const std::map<std::string, std::string> cases = {
      {"torus 4 x 4\n", "t.conf:1:9: radix 'x'"},
      {"xp_link 0x1 0x2\n", "t.conf:1:1: the first keyword must be torus or mesh"},
      {"mesh 3 3 1\n  xp_link 0x1 zz\n", "t.conf:2:15: 'zz' is not a non-zero switch GUID"},
      {"mesh 3 3 1\nxp_link 0x1 0x2\nyp_link 0x3 0x4\n", "t.conf:3:9: every link of a seed must start at the same switch"},
      {"torus 3 3 1\nfoo 1\n", "t.conf:2:1: unknown keyword 'foo'"},
      {"# nothing\n", "t.conf:1:1: no torus or mesh line"},
  };
  for (const auto& [text, want] : cases) {
    auto g = parse_torus_conf(text, "t.conf");
    ASSERT_FALSE(g.ok()) << text;
    EXPECT_EQ(g.error().message.rfind(want, 0), 0u) << g.error().message;
  }
}

}  // namespace
}  // namespace smd::torus_2qos_test
