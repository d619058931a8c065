// verify_tables: hand-built tables that are right, and each kind of wrong table it must refuse.
#include "routing/verify/verify.h"

#include <gtest/gtest.h>

#include "tests/unit/routing/hand_node.h"
#include "routing/engines/minhop/minhop_factory.h"
#include "routing/fabric_gen/fabric_gen.h"

namespace smd::verify_test {
namespace {

using test::make_node;

/// 2 leaves x 2 spines x 2 hosts per leaf; leaf ports 1,2 hosts, 3 spine0, 4 spine1; spine port 1 leaf0,
/// 2 leaf1. LIDs: hosts 1..4, leaf0 5, leaf1 6, spine0 7, spine1 8. Tables written by hand below.
struct Clos {
  Topology t;
  LidMap lids;
  RoutingTables r;
  NodeIndex h[4], leaf[2], spine[2];
  Clos() {
    for (int i = 0; i < 4; ++i) h[i] = t.add_node(make_node(NodeType::kCa, 1, 0x100 + i)).value();
    for (int i = 0; i < 2; ++i) leaf[i] = t.add_node(make_node(NodeType::kSwitch, 4, 0x200 + i)).value();
    for (int i = 0; i < 2; ++i) spine[i] = t.add_node(make_node(NodeType::kSwitch, 2, 0x300 + i)).value();
    t.mutable_node(leaf[1]).dr_path = {3, 2};
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(t.connect(leaf[i / 2], 1 + i % 2, h[i], 1).ok());
    for (int l = 0; l < 2; ++l) {
      for (int s = 0; s < 2; ++s) EXPECT_TRUE(t.connect(leaf[l], 3 + s, spine[s], 1 + l).ok());
    }
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(lids.assign(h[i], 1, static_cast<Lid>(1 + i), 0).ok());
    for (int i = 0; i < 2; ++i) EXPECT_TRUE(lids.assign(leaf[i], 0, static_cast<Lid>(5 + i), 0).ok());
    for (int i = 0; i < 2; ++i) EXPECT_TRUE(lids.assign(spine[i], 0, static_cast<Lid>(7 + i), 0).ok());
    r.engine = "hand";
    r.lft.resize(t.size());
    set(leaf[0], {1, 2, 3, 4, 0, 3, 3, 4});
    set(leaf[1], {3, 4, 1, 2, 4, 0, 3, 4});
    set(spine[0], {1, 1, 2, 2, 1, 2, 0, 1});
    set(spine[1], {1, 1, 2, 2, 1, 2, 1, 0});  // spine0 via leaf0 too: see SpineToSpineDownUp... below
  }
  void set(NodeIndex sw, std::vector<PortNum> ports) {
    Lft lft(8);
    for (std::size_t i = 0; i < ports.size(); ++i) lft.set(static_cast<Lid>(i + 1), ports[i]);
    r.lft[sw] = lft;
  }
};

void expect_failure(const Result<VerifyReport>& v, const std::string& what, const std::string& where) {
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().code, ErrorCode::kVerifyFailed);
  EXPECT_NE(v.error().message.find(what), std::string::npos) << v.error().message;
  EXPECT_NE(v.error().message.find(where), std::string::npos) << v.error().message;
}

TEST(Verify, HandWrittenClosTablesPassWithHandComputedFigures) {
  Clos c;
  auto v = verify_tables(c.t, c.lids, c.r, true);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(v->switches, 4u);
  EXPECT_EQ(v->lids, 8u);
  EXPECT_EQ(v->routes, 32u);  // 4 switches x 8 LIDs
  // 12 ordered host pairs: 4 on the same leaf (2 cables), 8 across (4 cables).
  EXPECT_EQ(v->ca_pairs, 12u);
  EXPECT_EQ(v->max_hops, 4u);
  EXPECT_DOUBLE_EQ(v->mean_hops, (4 * 2 + 8 * 4) / 12.0);
  EXPECT_TRUE(v->deadlock_free);
  EXPECT_TRUE(v->ca_deadlock_free);
  // Up-ports: leaf ports 3 and 4. leaf0 sends h2 (LID 3) up 3 and h3 up 4; leaf1 h0 up 3, h1 up 4.
  EXPECT_EQ(v->up_ports, 4u);
  EXPECT_EQ(v->up_port_lids_max, 1u);
  EXPECT_EQ(v->up_port_lids_min, 1u);
  EXPECT_EQ(v->up_port_lids_worst_spread, 0u);
}

TEST(Verify, BlackHoleNamesSwitchPathAndLid) {
  Clos c;
  c.r.lft[c.leaf[1]].set(1, kNoPort);
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "black hole", "0x0000000000000201");
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "DR 0,3,2", "LID 0x0001");
}

TEST(Verify, LoopBetweenLeafAndSpine) {
  Clos c;
  c.r.lft[c.spine[0]].set(3, 1);  // spine0 sends h2 back down to leaf0, which sends it up to spine0
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "loop", "LID 0x0003");
}

TEST(Verify, PortZeroAwayFromTheOwner) {
  Clos c;
  c.r.lft[c.spine[1]].set(7, 0);
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "port 0", "0x0000000000000301");
}

TEST(Verify, OwnLidNotOnPortZero) {
  Clos c;
  c.r.lft[c.spine[1]].set(8, 1);
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "own LID", "LID 0x0008");
}

TEST(Verify, WrongHostPortAtTheLastSwitch) {
  Clos c;
  c.r.lft[c.leaf[0]].set(1, 2);  // h0 is on port 1; port 2 reaches h1, which does not own LID 1
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "port 1 but the entry is 2", "LID 0x0001");
}

TEST(Verify, UncabledAndOutOfRangePorts) {
  Clos c;
  c.r.lft[c.leaf[0]].set(4, 7);
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "exceeds NumPorts", "LID 0x0004");
  Clos d;
  d.r.lft[d.leaf[0]].set(4, 1);  // port 1 leads to host h0, not the owner of LID 4
  expect_failure(verify_tables(d.t, d.lids, d.r, false), "leads to CA", "LID 0x0004");
}

TEST(Verify, TopBelowMaxLidAndAboveCap) {
  Clos c;
  c.r.lft[c.spine[0]] = Lft(7);
  for (Lid l = 1; l <= 7; ++l) c.r.lft[c.spine[0]].set(l, l <= 2 || l == 5 ? 1 : l == 7 ? 0 : 2);
  expect_failure(verify_tables(c.t, c.lids, c.r, false), "LinearFDBTop 0x0007", "0x0000000000000300");
  Clos d;
  d.t.mutable_node(d.leaf[0]).lft_cap = 8;  // LIDs 0..7 only, but top is 8
  expect_failure(verify_tables(d.t, d.lids, d.r, false), "LinearFDBCap 8", "0x0000000000000200");
}

TEST(Verify, SpineToSpineDownUpRoutesCloseACycleThatHostTrafficAvoids) {
  Clos c;
  // spine1 reaches spine0 via leaf1 while spine0 reaches spine1 via leaf0:
  // leaf0->spine1 -> spine1->leaf1 (host traffic to h2) -> leaf1->spine0 (spine1 to spine0)
  // -> spine0->leaf0 (host traffic to h0) -> leaf0->spine1 (spine0 to spine1): a cycle that only
  // switch-originated packets complete.
  c.r.lft[c.spine[1]].set(7, 2);
  auto v = verify_tables(c.t, c.lids, c.r, false);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(v->deadlock_free);
  EXPECT_TRUE(v->ca_deadlock_free);
  expect_failure(verify_tables(c.t, c.lids, c.r, true), "cycle", "0x0000000000000200[4]");
}

/// Ring of 4 switches, one host each (port 1), ring ports 2 (+1) and 3 (-1). LIDs: host i = i+1,
/// switch i = 5+i. Every switch forwards everything not its own clockwise: a textbook credit loop.
/// Where each ring switch's host and ring cables sit, and how many ports it has.
struct RingPorts {
  unsigned ports = 3;
  PortNum host[4] = {1, 1, 1, 1};
  PortNum cw[4] = {2, 2, 2, 2};   ///< towards switch i + 1
  PortNum ccw[4] = {3, 3, 3, 3};  ///< towards switch i - 1
};

struct Ring {
  Topology t;
  LidMap lids;
  RoutingTables r;
  NodeIndex sw[4], h[4];
  explicit Ring(const RingPorts& at = {}) {
    for (int i = 0; i < 4; ++i) sw[i] = t.add_node(make_node(NodeType::kSwitch, at.ports, 0x400 + i)).value();
    for (int i = 0; i < 4; ++i) h[i] = t.add_node(make_node(NodeType::kCa, 1, 0x500 + i)).value();
    for (int i = 0; i < 4; ++i) {
      EXPECT_TRUE(t.connect(sw[i], at.host[i], h[i], 1).ok());
      EXPECT_TRUE(t.connect(sw[i], at.cw[i], sw[(i + 1) % 4], at.ccw[(i + 1) % 4]).ok());
      EXPECT_TRUE(lids.assign(h[i], 1, static_cast<Lid>(1 + i), 0).ok());
      EXPECT_TRUE(lids.assign(sw[i], 0, static_cast<Lid>(5 + i), 0).ok());
    }
    r.engine = "ring";
    r.lft.resize(t.size());
    for (int i = 0; i < 4; ++i) {
      Lft lft(8);
      for (int d = 0; d < 4; ++d) {
        lft.set(static_cast<Lid>(1 + d), d == i ? at.host[i] : at.cw[i]);
        lft.set(static_cast<Lid>(5 + d), d == i ? 0 : at.cw[i]);
      }
      r.lft[sw[i]] = lft;
    }
  }
};

TEST(Verify, CreditLoopFailsOnlyWhenDeadlockFreedomIsRequired) {
  Ring g;
  auto relaxed = verify_tables(g.t, g.lids, g.r, false);
  ASSERT_TRUE(relaxed.ok()) << relaxed.error().message;
  EXPECT_FALSE(relaxed->deadlock_free);
  EXPECT_FALSE(relaxed->ca_deadlock_free);
  EXPECT_EQ(relaxed->max_hops, 5u);  // 3 ring hops + 2 host cables
  expect_failure(verify_tables(g.t, g.lids, g.r, true), "cycle", "0x0000000000000400");
}

TEST(Verify, RingRoutedBothWaysWithoutWrapIsDeadlockFree) {
  Ring g;
  // Route along the line 0-1-2-3 only (never use the 3-0 cable): the CDG is then acyclic.
  for (int i = 0; i < 4; ++i) {
    for (int d = 0; d < 4; ++d) {
      const PortNum p = d == i ? 1 : d > i ? 2 : 3;
      g.r.lft[g.sw[i]].set(static_cast<Lid>(1 + d), p);
      g.r.lft[g.sw[i]].set(static_cast<Lid>(5 + d), d == i ? 0 : p);
    }
  }
  auto v = verify_tables(g.t, g.lids, g.r, true);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_TRUE(v->deadlock_free);
  EXPECT_EQ(v->max_hops, 5u);
  // mean over 12 ordered pairs of |i-j| + 2: distances 1,2,3 occur 6,4,2 times.
  EXPECT_DOUBLE_EQ(v->mean_hops, (6 * 3 + 4 * 4 + 2 * 5) / 12.0);
}

/// The Ring's credit loop on 250-port switches whose ring cables sit on ports on both sides of 64 (the
/// verifier keeps dependencies on next ports 0-63 apart from the others): the same cycle, the same
/// counts as on ports 2 and 3, and the cycle named by its high ports.
TEST(Verify, CreditLoopThroughPortsAboveSixtyThreeIsFoundAndCountedTheSame) {
  Ring low;
  auto want = verify_tables(low.t, low.lids, low.r, false);
  ASSERT_TRUE(want.ok()) << want.error().message;
  // Clockwise/counter-clockwise ports 2/3 on switch 0, 64/63 on 1, 200/250 on 2, 65/1 on 3 (host on 4).
  const Ring high(RingPorts{250, {1, 1, 1, 4}, {2, 64, 200, 65}, {3, 63, 250, 1}});
  const Topology& t = high.t;
  const LidMap& lids = high.lids;
  const RoutingTables& r = high.r;
  auto v = verify_tables(t, lids, r, false);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(v->deadlock_free);
  EXPECT_FALSE(v->ca_deadlock_free);
  EXPECT_EQ(v->cdg_channels, want->cdg_channels);
  EXPECT_EQ(v->cdg_edges, want->cdg_edges);
  EXPECT_EQ(v->cdg_edges, 4u);  // each switch's clockwise channel waits on the next switch's
  expect_failure(verify_tables(t, lids, r, true), "cycle", "[200]");
  expect_failure(verify_tables(t, lids, r, true), "cycle", "[64]");
}

TEST(Verify, UncabledCaLidIsCountedNotFailed) {
  Clos c;
  const NodeIndex loose = c.t.add_node(make_node(NodeType::kCa, 1, 0x999)).value();
  ASSERT_TRUE(c.lids.assign(loose, 1, 9, 0).ok());
  for (NodeIndex s : c.t.switches()) c.r.lft[s].set(9, kNoPort);
  auto v = verify_tables(c.t, c.lids, c.r, true);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(v->unroutable_lids, 1u);
  EXPECT_EQ(v->lids, 8u);
}

TEST(Verify, MinhopOnGeneratedFatTreesPassesWithTreeHopCounts) {
  for (unsigned n : {2u, 3u}) {
    auto t = make_kary_ntree(4, n);
    ASSERT_TRUE(t.ok()) << t.error().message;
    LidMap lids;
    Lid next = 1;
    for (NodeIndex h : t->cas()) ASSERT_TRUE(lids.assign(h, 1, next++, 0).ok());
    for (NodeIndex s : t->switches()) ASSERT_TRUE(lids.assign(s, 0, next++, 0).ok());
    auto r = minhop_factory().create({})->compute(*t, lids);
    ASSERT_TRUE(r.ok());
    auto v = verify_tables(*t, lids, *r, false);
    ASSERT_TRUE(v.ok()) << v.error().message;
    const std::uint64_t hosts = t->cas().size();
    EXPECT_EQ(v->ca_pairs, hosts * (hosts - 1));
    EXPECT_EQ(v->max_hops, 2 * n);  // up to the top level and down again, plus the two host cables
  }
}

}  // namespace
}  // namespace smd::verify_test
