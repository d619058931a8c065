// The one LFT walker (routing/model/lft_walk.h) on a fabric small enough to follow by hand. Every
// expectation below was worked out on paper from the drawing, not computed by the code under test.
//
//        h0 (2 ports)          h1
//        [1]    [2]            [1]
//         |      |              |
//        A[1]   A[2]           B[1]
//     A: 4 ports, A[3] ---- B[3], A[4] uncabled
//     B: 4 ports, B[2] ---- C[1], B[4] uncabled
//     C: 2 ports, C[2] uncabled
// Switch indices follow insertion order: A = 0, B = 1, C = 2.
#include "routing/model/lft_walk.h"

#include <gtest/gtest.h>

#include <array>
#include <utility>
#include <vector>

#include "tests/unit/routing/hand_node.h"

namespace smd::lft_walk_test {
namespace {

using test::make_node;

struct Tiny {
  Topology t;
  NodeIndex a, b, c, h0, h1;
  SwitchGraph g;
  static constexpr SwitchIndex kA = 0, kB = 1, kC = 2;
  // The destinations, written down from the drawing.
  static constexpr LidTarget kH1{kB, 1};       // h1 port 1 hangs off B[1]
  static constexpr LidTarget kH0p2{kA, 2};     // h0 port 2 hangs off A[2]
  static constexpr LidTarget kSwitchB{kB, 0};  // B's own LID: port 0 of B

  Tiny() {
    a = t.add_node(make_node(NodeType::kSwitch, 4, 0xA)).value();
    b = t.add_node(make_node(NodeType::kSwitch, 4, 0xB)).value();
    c = t.add_node(make_node(NodeType::kSwitch, 2, 0xC)).value();
    h0 = t.add_node(make_node(NodeType::kCa, 2, 0x100)).value();
    h1 = t.add_node(make_node(NodeType::kCa, 1, 0x101)).value();
    EXPECT_TRUE(t.connect(a, 1, h0, 1).ok());
    EXPECT_TRUE(t.connect(a, 2, h0, 2).ok());
    EXPECT_TRUE(t.connect(b, 1, h1, 1).ok());
    EXPECT_TRUE(t.connect(a, 3, b, 3).ok());
    EXPECT_TRUE(t.connect(b, 2, c, 1).ok());
    g = SwitchGraph::build(t);
  }
};

using Hops = std::vector<std::pair<SwitchIndex, PortNum>>;

/// Walk with one entry per switch (the LFT row of the destination LID) and record every hop.
LftWalkEnd walk(const Tiny& f, SwitchIndex from, const LidTarget& dst, std::array<PortNum, 3> entry, Hops& hops) {
  return walk_lft(
      f.g, from, dst, [&](SwitchIndex s) { return entry[s]; },
      [&](SwitchIndex s, PortNum p) { hops.emplace_back(s, p); });
}

TEST(LftWalk, DeliveredOnTheDestinationsPort) {
  Tiny f;
  Hops hops;
  const LftWalkEnd end = walk(f, Tiny::kA, Tiny::kH1, {3, 1, kNoPort}, hops);
  EXPECT_EQ(end.how, LftHop::kDelivered);
  EXPECT_TRUE(end.delivered());
  EXPECT_EQ(end.at, Tiny::kB);
  EXPECT_EQ(end.port, 1);
  EXPECT_EQ(hops, (Hops{{Tiny::kA, 3}, {Tiny::kB, 1}}));
}

TEST(LftWalk, SwitchLidIsDeliveredOnPortZero) {
  Tiny f;
  Hops hops;
  const LftWalkEnd end = walk(f, Tiny::kA, Tiny::kSwitchB, {3, 0, kNoPort}, hops);
  EXPECT_EQ(end.how, LftHop::kDelivered);
  EXPECT_EQ(end.at, Tiny::kB);
  EXPECT_EQ(end.port, 0);
  EXPECT_EQ(hops, (Hops{{Tiny::kA, 3}, {Tiny::kB, 0}}));
}

TEST(LftWalk, DroppedAtNoEntry) {
  Tiny f;
  Hops hops;
  const LftWalkEnd end = walk(f, Tiny::kA, Tiny::kH1, {3, kNoPort, kNoPort}, hops);
  EXPECT_EQ(end.how, LftHop::kNoEntry);
  EXPECT_FALSE(end.delivered());
  EXPECT_EQ(end.at, Tiny::kB);
  EXPECT_EQ(end.port, kNoPort);
  EXPECT_EQ(hops, (Hops{{Tiny::kA, 3}}));  // the packet never leaves B
}

TEST(LftWalk, LoopWhenMoreHopsThanSwitches) {
  Tiny f;
  Hops hops;
  // A sends to B, B sends back to A: three switches allow three hops, then the walk gives up.
  const LftWalkEnd end = walk(f, Tiny::kA, Tiny::kH1, {3, 3, kNoPort}, hops);
  EXPECT_EQ(end.how, LftHop::kLoop);
  EXPECT_EQ(end.port, kNoPort);
  EXPECT_EQ(hops, (Hops{{Tiny::kA, 3}, {Tiny::kB, 3}, {Tiny::kA, 3}}));
}

TEST(LftWalk, LeavingTheDestinationSwitchEndsInALoop) {
  Tiny f;
  Hops hops;
  // B, h1's switch, sends the packet on to C, which sends it back to B.
  const LftWalkEnd end = walk(f, Tiny::kB, Tiny::kH1, {kNoPort, 2, 1}, hops);
  EXPECT_EQ(end.how, LftHop::kLoop);
  EXPECT_EQ(hops, (Hops{{Tiny::kB, 2}, {Tiny::kC, 1}, {Tiny::kB, 2}}));
}

TEST(LftWalk, WrongDeliveryPortOfTheRightCa) {
  Tiny f;
  Hops hops;
  // h0 port 2 is meant; A sends to port 1, which is h0's other port.
  const LftWalkEnd end = walk(f, Tiny::kA, Tiny::kH0p2, {1, kNoPort, kNoPort}, hops);
  EXPECT_EQ(end.how, LftHop::kWrongPort);
  EXPECT_EQ(end.at, Tiny::kA);
  EXPECT_EQ(end.port, 1);
  EXPECT_EQ(hops, (Hops{{Tiny::kA, 1}}));  // it does leave A, to the wrong port
}

TEST(LftWalk, WrongCa) {
  Tiny f;
  Hops hops;
  const LftWalkEnd end = walk(f, Tiny::kB, Tiny::kH0p2, {kNoPort, 1, kNoPort}, hops);
  EXPECT_EQ(end.how, LftHop::kWrongPort);
  EXPECT_EQ(end.at, Tiny::kB);
}

TEST(LftWalk, PortZeroAtASwitchThatDoesNotOwnTheLid) {
  Tiny f;
  Hops hops;
  EXPECT_EQ(walk(f, Tiny::kA, Tiny::kH1, {0, 1, kNoPort}, hops).how, LftHop::kPortZero);
  EXPECT_TRUE(hops.empty());
  // B's own switch LID on port 0 of A: A is not B.
  EXPECT_EQ(walk(f, Tiny::kA, Tiny::kSwitchB, {0, 0, kNoPort}, hops).how, LftHop::kPortZero);
  // h1's LID on port 0 of B, its own switch: port 0 is B itself, not h1.
  EXPECT_EQ(walk(f, Tiny::kB, Tiny::kH1, {kNoPort, 0, kNoPort}, hops).how, LftHop::kPortZero);
  EXPECT_TRUE(hops.empty());
}

TEST(LftWalk, PortAboveNumPortsAndUncabledPort) {
  Tiny f;
  Hops hops;
  const LftWalkEnd high = walk(f, Tiny::kC, Tiny::kH1, {kNoPort, kNoPort, 3}, hops);  // C has 2 ports
  EXPECT_EQ(high.how, LftHop::kBadPort);
  EXPECT_EQ(high.port, 3);
  EXPECT_TRUE(hops.empty());
  const LftWalkEnd loose = walk(f, Tiny::kA, Tiny::kH1, {4, kNoPort, kNoPort}, hops);
  EXPECT_EQ(loose.how, LftHop::kUncabled);
  EXPECT_EQ(hops, (Hops{{Tiny::kA, 4}}));
}

TEST(LftWalk, UnroutableDestinationIsNeverDelivered) {
  Tiny f;
  Hops hops;
  const LftWalkEnd end = walk(f, Tiny::kA, LidTarget{}, {3, 1, kNoPort}, hops);
  EXPECT_EQ(end.how, LftHop::kWrongPort);  // h1 does not own a LID nobody can reach
}

TEST(LftHopRule, OneEntryAtATime) {
  Tiny f;
  SwitchIndex next = 77;
  EXPECT_EQ(lft_hop(f.g, Tiny::kA, 3, Tiny::kH1, next), LftHop::kForward);
  EXPECT_EQ(next, Tiny::kB);
  next = 77;
  EXPECT_EQ(lft_hop(f.g, Tiny::kB, 1, Tiny::kH1, next), LftHop::kDelivered);
  EXPECT_EQ(next, 77u);  // only a forward hop names the next switch
  EXPECT_EQ(lft_hop(f.g, Tiny::kB, kNoPort, Tiny::kH1, next), LftHop::kNoEntry);
  EXPECT_EQ(lft_hop(f.g, Tiny::kB, 5, Tiny::kH1, next), LftHop::kBadPort);
  EXPECT_EQ(lft_hop(f.g, Tiny::kB, 0, Tiny::kSwitchB, next), LftHop::kDelivered);
  EXPECT_EQ(lft_hop(f.g, Tiny::kA, 0, Tiny::kSwitchB, next), LftHop::kPortZero);
  EXPECT_EQ(lft_hop(f.g, Tiny::kB, 4, Tiny::kH1, next), LftHop::kUncabled);
  EXPECT_EQ(lft_hop(f.g, Tiny::kA, 2, Tiny::kH1, next), LftHop::kWrongPort);
  EXPECT_EQ(lft_hop(f.g, Tiny::kA, 2, Tiny::kH0p2, next), LftHop::kDelivered);
}

TEST(LftWalk, PortTargetsFromTheDrawing) {
  Tiny f;
  const LidTarget h1 = port_target(f.t, f.g, f.h1, 1);
  EXPECT_EQ(h1.sw, Tiny::kB);
  EXPECT_EQ(h1.port, 1);
  const LidTarget h0 = port_target(f.t, f.g, f.h0, 2);
  EXPECT_EQ(h0.sw, Tiny::kA);
  EXPECT_EQ(h0.port, 2);
  const LidTarget sw = port_target(f.t, f.g, f.b, 3);  // any port of a switch means the switch
  EXPECT_EQ(sw.sw, Tiny::kB);
  EXPECT_EQ(sw.port, 0);
  EXPECT_EQ(port_target(f.t, f.g, f.h0, 3).sw, kNoSwitch);  // h0 has no port 3
  EXPECT_EQ(port_target(f.t, f.g, 99, 1).sw, kNoSwitch);    // no such node
  Topology loose = f.t;
  const NodeIndex h2 = loose.add_node(make_node(NodeType::kCa, 1, 0x102)).value();
  EXPECT_EQ(port_target(loose, SwitchGraph::build(loose), h2, 1).sw, kNoSwitch);  // no cable
}

TEST(SwitchLfts, ReadsTablesByNodeIndexWithNoPortBeyond) {
  Tiny f;
  RoutingTables tables;
  tables.lft.resize(f.t.size());
  tables.lft[f.a].set(5, 3);  // A: LID 5 -> port 3; LIDs 0..4 unset
  tables.lft[f.b].set(2, 1);
  tables.lft.resize(f.c);  // C has no table at all
  const SwitchLfts lfts(f.g, tables);
  EXPECT_EQ(lfts.out_port(Tiny::kA, 5), 3);
  EXPECT_EQ(lfts.out_port(Tiny::kA, 4), kNoPort);
  EXPECT_EQ(lfts.out_port(Tiny::kA, 6), kNoPort);  // past the table
  EXPECT_EQ(lfts.out_port(Tiny::kB, 2), 1);
  EXPECT_EQ(lfts.out_port(Tiny::kC, 1), kNoPort);

  const Lft only(7);
  const std::vector<const Lft*> rows = {nullptr, &only, nullptr};
  const SwitchLfts partial(rows);
  EXPECT_EQ(partial.out_port(Tiny::kA, 1), kNoPort);
  EXPECT_EQ(partial.out_port(Tiny::kB, 7), kNoPort);
}

}  // namespace
}  // namespace smd::lft_walk_test
