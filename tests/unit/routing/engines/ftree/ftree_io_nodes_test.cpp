// ftree's compute-node and I/O-node lists (routing.ftree.cn_guids / io_guids / max_reverse_hops) on a
// 2-level tree small enough to route by hand: two leaves L0, L1 with two compute nodes each, two spines
// S0, S1, and an I/O node on each spine. Witnesses are the test-side LFT walks of updn_ftree_checks.h.
#include <gtest/gtest.h>

#include <cstdio>

#include "routing/engines/ftree/ftree_factory.h"
#include "routing/engines/ftree/ftree_options.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/hand_node.h"
#include "tests/unit/routing/updn_ftree_checks.h"

namespace smd::ftree_io_nodes_test {
namespace {

/// L0 (0x200), L1 (0x201): port 1 -> S0, port 2 -> S1, ports 3, 4 -> hosts h(2i), h(2i+1), port 5 -> an
/// optional host h4 on L0. S0 (0x300), S1 (0x301): port 1 -> L0, port 2 -> L1, port 3 -> io0 / io1.
/// CA port GUIDs: h_i 0x10100 + i, io_i 0x10110 + i.
struct SpineIoTree {
  Topology t;
  NodeIndex leaf[2], spine[2], h[5], io[2] = {kNoNode, kNoNode};
  LidMap lids;

  explicit SpineIoTree(bool host_on_leaf5 = false, bool spine_io = true) {
    for (int i = 0; i < 2; ++i) {
      leaf[i] = add(NodeType::kSwitch, 5, 0x200 + i);
      spine[i] = add(NodeType::kSwitch, 3, 0x300 + i);
    }
    for (int i = 0; i < 2; ++i) {
      for (int s = 0; s < 2; ++s) connect(leaf[i], static_cast<PortNum>(1 + s), spine[s], static_cast<PortNum>(1 + i));
    }
    for (int i = 0; i < 4; ++i) {
      h[i] = add(NodeType::kCa, 1, 0x100 + i);
      connect(leaf[i / 2], static_cast<PortNum>(3 + i % 2), h[i], 1);
    }
    for (int i = 0; i < 2 && spine_io; ++i) {
      io[i] = add(NodeType::kCa, 1, 0x110 + i);
      connect(spine[i], 3, io[i], 1);
    }
    h[4] = kNoNode;
    if (host_on_leaf5) {
      h[4] = add(NodeType::kCa, 1, 0x104);
      connect(leaf[0], 5, h[4], 1);
    }
    lids = testing::assign_test_lids(t);
  }

  NodeIndex add(NodeType type, unsigned ports, Guid guid) {
    Node n = test::make_node(type, ports, guid);
    for (PortNum p = 0; p <= ports; ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : 0x10000 + guid;
    return t.add_node(std::move(n)).value();
  }
  void connect(NodeIndex a, PortNum pa, NodeIndex b, PortNum pb) { EXPECT_TRUE(t.connect(a, pa, b, pb).ok()); }
  Lid lid(NodeIndex ca) const { return lids.base_lid(ca, 1); }
  std::vector<NodeIndex> hosts() const { return {h[0], h[1], h[2], h[3]}; }
};

constexpr Guid kHostPort[] = {0x10100, 0x10101, 0x10102, 0x10103, 0x10104};
constexpr Guid kIoPort[] = {0x10110, 0x10111};

Result<RoutingTables> route(const SpineIoTree& f, std::vector<Guid> cn, std::vector<Guid> io, unsigned reverse) {
  FtreeOptions ftree;
  ftree.cn_guids = std::move(cn);
  ftree.io_guids = std::move(io);
  ftree.max_reverse_hops = reverse;
  RoutingOptions options;
  options.engines.set(ftree);
  return ftree_factory().create(options)->compute(f.t, f.lids);
}

TEST(FtreeIoNodes, ComputeNodesStayShiftOptimalAndSpineIoNodesTakeOneReverseHop) {
  const SpineIoTree f;
  auto r = route(f, {kHostPort[0], kHostPort[1], kHostPort[2], kHostPort[3]}, {kIoPort[0], kIoPort[1]}, 1);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // The CA order ftree balances over is the four compute nodes, leaf by leaf.
  EXPECT_EQ(r->ca_order, f.hosts());
  // Two CNs per leaf, two up-cables per leaf: every shift of them loads each cable at most once.
  EXPECT_EQ(testing::max_shift_load(f.t, f.lids, *r, f.hosts()), 1u);
  // Every switch reaches every LID, the I/O nodes included.
  EXPECT_EQ(testing::check_all_reach(f.t, f.lids, *r), "");
  // A leaf climbs straight to io0's spine; S1 has no up*/down* route to it: it goes down to a leaf and
  // up again (one reverse hop), three switches in all.
  const auto from_leaf = testing::walk(f.t, f.lids, *r, f.leaf[1], f.lid(f.io[0]));
  EXPECT_EQ(from_leaf.switches, (std::vector<NodeIndex>{f.leaf[1], f.spine[0]}));
  const auto from_spine = testing::walk(f.t, f.lids, *r, f.spine[1], f.lid(f.io[0]));
  ASSERT_EQ(from_spine.switches.size(), 3u);
  EXPECT_TRUE(from_spine.switches[1] == f.leaf[0] || from_spine.switches[1] == f.leaf[1]);
  EXPECT_EQ(from_spine.switches[2], f.spine[0]);
  // io0 -> io1 enters at S0 and likewise takes S0 -> leaf -> S1.
  EXPECT_EQ(testing::walk(f.t, f.lids, *r, f.spine[0], f.lid(f.io[1])).switches.size(), 3u);
  // The turn leaves up*/down*: the engine no longer promises deadlock freedom and says why.
  EXPECT_FALSE(r->deadlock_free);
  ASSERT_EQ(r->notes.size(), 1u);
  EXPECT_NE(r->notes[0].find("max_reverse_hops: 2 switch routes"), std::string::npos) << r->notes[0];
  auto verified = verify_tables(f.t, f.lids, *r, /*require_deadlock_free=*/false);
  ASSERT_TRUE(verified.ok()) << verified.error().message;
  // The verifier's own channel-dependency figure agrees with the test's independent cycle check.
  EXPECT_EQ(verified->deadlock_free, testing::cdg_acyclic(f.t, f.lids, *r));
  std::printf("spine I/O tree, max_reverse_hops 1: channel-dependency graph acyclic: %s (CA-injected only: %s)\n",
              verified->deadlock_free ? "yes" : "no", verified->ca_deadlock_free ? "yes" : "no");
}

TEST(FtreeIoNodes, SpineIoNodeWithoutReverseHopsIsReportedUnreachable) {
  const SpineIoTree f;
  auto r = route(f, {kHostPort[0], kHostPort[1], kHostPort[2], kHostPort[3]}, {kIoPort[0], kIoPort[1]}, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kDeclined);
  // io0 (first in LID order) is unreachable from the other spine, S1 (0x301), without one reverse hop.
  EXPECT_NE(r.error().message.find("0x0000000000000301"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("0x0000000000010110"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("only with 1 reverse hop, routing.ftree.max_reverse_hops is 0"), std::string::npos)
      << r.error().message;
}

TEST(FtreeIoNodes, PortsInNeitherListGetNoReverseHops) {
  const SpineIoTree f;
  // io0/io1 are neither CNs nor listed as I/O nodes: max_reverse_hops does not apply to them.
  auto r = route(f, {kHostPort[0], kHostPort[1], kHostPort[2], kHostPort[3]}, {}, 3);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("neither a compute node nor an I/O node"), std::string::npos) << r.error().message;
}

TEST(FtreeIoNodes, WithoutTheListsCasOnTwoLevelsAreNoFatTree) {
  const SpineIoTree f;
  auto r = route(f, {}, {}, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kDeclined);
  EXPECT_NE(r.error().message.find("not a fat tree"), std::string::npos) << r.error().message;
}

TEST(FtreeIoNodes, IoListAloneMakesEveryOtherPortAComputeNode) {
  const SpineIoTree f(/*host_on_leaf5=*/true);
  // io_guids only: h0..h3 are CNs; h4 on L0 and the spine ports are I/O. h4 has an up*/down* route from
  // everywhere, so with the spines' I/O nodes at 2 reverse hops the tables still route everything.
  auto r = route(f, {}, {kHostPort[4], kIoPort[0], kIoPort[1]}, 2);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->ca_order, f.hosts());
  EXPECT_EQ(testing::max_shift_load(f.t, f.lids, *r, f.hosts()), 1u);
  EXPECT_EQ(testing::check_all_reach(f.t, f.lids, *r), "");
  // h4's routes need no turn: from S1 straight down to L0.
  EXPECT_EQ(testing::walk(f.t, f.lids, *r, f.spine[1], f.lid(f.h[4])).switches,
            (std::vector<NodeIndex>{f.spine[1], f.leaf[0]}));
}

TEST(FtreeIoNodes, LeafIoNodeNeedsNoReverseHopAndKeepsDeadlockFreedom) {
  const SpineIoTree f(/*host_on_leaf5=*/true, /*spine_io=*/false);
  // A plain 2-level tree with a third host on L0, listed as I/O: routed after the CNs, up*/down* only.
  auto r = route(f, {}, {kHostPort[4]}, 1);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->ca_order, f.hosts());
  EXPECT_EQ(testing::max_shift_load(f.t, f.lids, *r, f.hosts()), 1u);
  EXPECT_EQ(testing::check_all_reach(f.t, f.lids, *r), "");
  EXPECT_TRUE(r->deadlock_free);
  EXPECT_TRUE(r->notes.empty());
  EXPECT_TRUE(testing::cdg_acyclic(f.t, f.lids, *r));
  // h4's LID leaves the other leaf by the up-cable fewer non-CN LIDs use: both are empty, port 1 first.
  EXPECT_EQ(r->lft[f.leaf[1]].get(f.lid(f.h[4])), 1);
}

TEST(FtreeIoNodes, GuidsThatNameNoPortAreNoted) {
  const SpineIoTree f;
  auto r = route(f, {kHostPort[0], kHostPort[1], kHostPort[2], kHostPort[3], 0x999}, {kIoPort[0], kIoPort[1]}, 1);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->notes.size(), 2u);
  EXPECT_EQ(r->notes[0],
            "routing.ftree.cn_guids: 1 GUID names no CA port with a LID cabled to a switch, skipped: "
            "0x0000000000000999");
}

TEST(FtreeIoNodes, NoComputeNodeLeftDeclines) {
  const SpineIoTree f;
  auto r = route(f, {0x999}, {}, 0);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kDeclined);
  EXPECT_NE(r.error().message.find("no compute node"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace smd::ftree_io_nodes_test
