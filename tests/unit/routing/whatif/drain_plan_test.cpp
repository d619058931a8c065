// What-if drain (routing/whatif/drain_plan.h) on a hand-built two-leaf, two-spine fabric whose "before"
// tables are written here by hand, so lost pairs, LFT blocks and loads can be read off the drawing:
//
//        S0 (LID 7)        S1 (LID 8)          port 1 of each spine -> L0, port 2 -> L1
//         |1   \2         /1    |2
//         |      \      /       |              L0 port 1 -> S0, port 2 -> S1, ports 3, 4 -> h0, h1
//        L0 (LID 5)       L1 (LID 6)           L1 port 1 -> S0, port 2 -> S1, ports 3, 4 -> h2, h3
//        h0=1  h1=2       h2=3  h3=100         (h3's LID sits in LFT block 1: LIDs 64..127)
//
// Before, L0 sends h2 by S0 and h3 by S1, L1 sends h0 by S0 and h1 by S1: shift k=2 (h0->h2, h1->h3,
// h2->h0, h3->h1) puts one flow on every cable.
#include "routing/whatif/drain_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/isolation/routed_topology.h"
#include "routing/lids/lid_assign.h"
#include "routing/model/vl_layers.h"
#include "routing/whatif/fabric_loss.h"
#include "tests/unit/routing/hand_node.h"
#include "tests/unit/routing/two_spine_fabric.h"

namespace smd::drain_plan_test {
namespace {

using test::make_node;

// The hand-drawn tree of two_spine_fabric.h, with LIDs and tables before written out by hand.
struct TwoByTwo : test::TwoSpineFabric {
  LidMap lids;
  RoutingTables before;

  void lft(NodeIndex sw, std::vector<std::pair<Lid, PortNum>> entries) {
    Lft table(100);
    for (auto [lid, port] : entries) table.set(lid, port);
    before.lft[sw] = table;
  }

  TwoByTwo() {
    for (auto [n, p, lid] : std::vector<std::tuple<NodeIndex, PortNum, Lid>>{
             {h0, 1, 1}, {h1, 1, 2}, {h2, 1, 3}, {h3, 1, 100}, {l0, 0, 5}, {l1, 0, 6}, {s0, 0, 7}, {s1, 0, 8}}) {
      EXPECT_TRUE(lids.assign(n, p, lid, 0).ok());
    }
    before.engine = "by hand";
    before.lft.resize(t.size());
    lft(l0, {{1, 3}, {2, 4}, {3, 1}, {100, 2}, {5, 0}, {6, 1}, {7, 1}, {8, 2}});
    lft(l1, {{1, 1}, {2, 2}, {3, 3}, {100, 4}, {5, 1}, {6, 0}, {7, 1}, {8, 2}});
    lft(s0, {{1, 1}, {2, 1}, {3, 2}, {100, 2}, {5, 1}, {6, 2}, {7, 0}, {8, 1}});
    lft(s1, {{1, 1}, {2, 1}, {3, 2}, {100, 2}, {5, 1}, {6, 2}, {7, 1}, {8, 0}});
  }

  DrainOptions options() const {
    DrainOptions o;
    o.chain = {"minhop"};
    o.quality.perm_seeds = 3;
    o.quality.ebb_samples = 0;
    o.quality.threads = 1;
    return o;
  }

  DrainPart sw(NodeIndex n) const {
    DrainPart p;
    p.node = n;
    return p;
  }
};

TEST(DrainPlan, ChangedBlocksCountSixtyFourEntryBlocksAndReadPastTheTopAsEmpty) {
  Lft a(70);
  Lft b(70);
  EXPECT_EQ(changed_lft_blocks(a, b), 0u);
  b.set(3, 1);
  EXPECT_EQ(changed_lft_blocks(a, b), 1u);
  b.set(64, 2);  // block 1
  EXPECT_EQ(changed_lft_blocks(a, b), 2u);
  Lft c(70);
  c.set(200, kNoPort);  // a longer table of 0xFF only: same entries as a
  EXPECT_EQ(changed_lft_blocks(a, c), 0u);
  c.set(130, 4);  // block 2, past a's top
  EXPECT_EQ(changed_lft_blocks(a, c), 1u);
}

TEST(DrainPlan, DrainedSwitchLosesEveryCableAndIndexesStay) {
  TwoByTwo f;
  std::size_t cables = 0;
  const std::vector<DrainPart> parts{f.sw(f.l0)};
  const Topology d = drained_topology(f.t, parts, cables);
  EXPECT_EQ(cables, 4u);  // two up-links, two hosts
  EXPECT_EQ(d.size(), f.t.size());
  for (const Port& p : d.node(f.l0).ports) EXPECT_FALSE(p.connected());
  EXPECT_FALSE(d.node(f.h0).ports[1].connected());
  EXPECT_TRUE(d.node(f.l1).ports[1].connected());
  EXPECT_EQ(d.link_count(), f.t.link_count() - 4);
}

TEST(DrainPlan, NamingACableAndItsSwitchCountsTheCableOnce) {
  TwoByTwo f;
  DrainPart cable;
  cable.kind = DrainPart::Kind::kCable;
  cable.node = f.s0;
  cable.port = 1;
  cable.peer = f.l0;
  cable.peer_port = 1;
  std::size_t cables = 0;
  const std::vector<DrainPart> parts{cable, f.sw(f.l0)};
  (void)drained_topology(f.t, parts, cables);
  EXPECT_EQ(cables, 4u);
}

// A switch and a cable with an end on it, named in one list (S0[1] is S0's end of the L0-S0 cable, L0[2]
// L0's end of the L0-S1 cable, h2[1] a host cable on L1): the cables of L0 are inside the drained L0, said
// once each, by the texts typed; the host cable is not. Before the fix the list passed silently.
TEST(DrainPlan, ACableOfASwitchNamedWithItIsSaid) {
  TwoByTwo f;
  const std::vector<std::string> texts{"S0[1]", "h2[1]", "L0", "L0[2]"};
  auto parts = resolve_drain_parts(f.t, texts);
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  EXPECT_EQ(drain_overlaps(*parts), (std::vector<std::string>{"'S0[1]' is a cable of switch 'L0' (drained with it)",
                                                              "'L0[2]' is a cable of switch 'L0' (drained with it)"}));
  const std::vector<std::string> apart{"S0[1]", "L1", "h0[1]"};
  auto separate = resolve_drain_parts(f.t, apart);
  ASSERT_TRUE(separate.ok()) << separate.error().message;
  EXPECT_TRUE(drain_overlaps(*separate).empty());
  auto rep = what_if_drain(f.t, f.lids, f.before, *parts, f.options());
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->overlaps, drain_overlaps(*parts));
}

// Spine S0 out: every host still reaches every other through S1, so nothing is lost; the shift k=2 that
// spread over both spines now puts two flows on L0->S1 and L1->S1; the blocks follow from the tables above:
//   L0: LIDs 3 (h2), 6 (L1) move to port 2 and 7 (S0) becomes 0xFF; LID 100 already used port 2 -> block 0
//   L1: LIDs 1 (h0), 5 (L0) to port 2, 7 to 0xFF; LID 100 is local                                -> block 0
//   S0: forwards nothing: everything but its own LID 7 becomes 0xFF, LID 100 too         -> blocks 0 and 1
//   S1: its entry for S0 (7) becomes 0xFF; LID 100 unchanged                                       -> block 0
TEST(DrainPlan, SpineDrainLosesNothingAndDoublesTheWorstShiftLoad) {
  TwoByTwo f;
  const std::vector<DrainPart> parts{f.sw(f.s0)};
  auto rep = what_if_drain(f.t, f.lids, f.before, parts, f.options());
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->engine_after, "minhop");
  // S0 alone is an island now, which local repair declines: the chain's tables with the old routes kept.
  EXPECT_EQ(rep->made_by, "minimal repair");
  EXPECT_EQ(rep->cables_drained, 2u);
  EXPECT_EQ(rep->endpoints, 4u);
  EXPECT_EQ(rep->reachable_before, 12u);
  EXPECT_EQ(rep->reachable_after, 12u);
  EXPECT_EQ(rep->lost_pairs, 0u);
  EXPECT_EQ(rep->cut_off, 0u);
  EXPECT_TRUE(rep->first_lost.empty());
  EXPECT_EQ(rep->quality_before.shift_max_load, 1u);
  EXPECT_EQ(rep->quality_after.shift_max_load, 2u);
  EXPECT_TRUE(rep->deadlock_free_before);
  EXPECT_TRUE(rep->deadlock_free_after);
  EXPECT_EQ(rep->lft_blocks, 5u);
  EXPECT_EQ(rep->switches_changed, 4u);
  ASSERT_FALSE(rep->most_changed.empty());
  EXPECT_EQ(rep->most_changed[0].node, f.s0);
  EXPECT_EQ(rep->most_changed[0].blocks, 2u);
  for (std::size_t i = 1; i < rep->most_changed.size(); ++i) EXPECT_EQ(rep->most_changed[i].blocks, 1u);
  EXPECT_TRUE(rep->partitions.empty());
}

// Fresh tables after a declined local repair and a refused mix name each reason once: the local repair's
// own message starts "local repair: " (it read "local repair: local repair: ..." before).
TEST(DrainPlan, FreshTablesNameEachDeclinedRepairOnce) {
  TwoByTwo f;
  f.before.layering = std::make_shared<VlLayering>(f.t, f.lids.max_lid());
  const std::vector<CableEnd> drains{{f.s0, 0}};
  const RoutedTopology after = routed_topology(f.t, drains, {});
  RerouteOptions o;
  o.chain = {"minhop"};
  o.minimal_repair = true;
  auto r = reroute_after_loss(f.t, after.topo, f.lids, f.before, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->made_by,
            "fresh tables (local repair: the previous tables are VL-layered; minimal repair: VL-layered tables are "
            "never mixed)");
}

// Leaf L0 out: h0 and h1 lose everything: 2 hosts x 2 others x 2 directions, plus h0<->h1 = 10 pairs; the
// first listed by source LID then destination LID.
TEST(DrainPlan, LeafDrainCutsItsHostsOffAndNamesThePairs) {
  TwoByTwo f;
  const std::vector<DrainPart> parts{f.sw(f.l0)};
  DrainOptions o = f.options();
  o.listed = 3;
  o.minimal_repair = false;  // routing.repair full: the same pairs are lost
  auto rep = what_if_drain(f.t, f.lids, f.before, parts, o);
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->reachable_before, 12u);
  EXPECT_EQ(rep->reachable_after, 2u);  // h2 <-> h3
  EXPECT_EQ(rep->made_by, "fresh tables");
  EXPECT_EQ(rep->entries_repaired, 0u);
  EXPECT_EQ(rep->lost_pairs, 10u);
  EXPECT_EQ(rep->gained_pairs, 0u);
  ASSERT_EQ(rep->first_lost.size(), 3u);
  EXPECT_EQ(rep->first_lost[0].src.lid, 1);
  EXPECT_EQ(rep->first_lost[0].dst.lid, 2);
  EXPECT_EQ(rep->first_lost[1].dst.lid, 3);
  EXPECT_EQ(rep->first_lost[2].dst.lid, 100);
  EXPECT_EQ(rep->first_lost[2].dst.node, f.h3);
  EXPECT_EQ(rep->cut_off, 2u);
  ASSERT_EQ(rep->first_cut_off.size(), 2u);
  EXPECT_EQ(rep->first_cut_off[0].node, f.h0);
  EXPECT_EQ(rep->first_cut_off[1].node, f.h1);
  EXPECT_FALSE(rep->sm_cut_off);  // the SM sits on h2
  // The quality report after counts the hosts still cabled: h2 and h3.
  EXPECT_EQ(rep->quality_after.endpoints, 2u);
}

TEST(DrainPlan, CutOffSmIsSaid) {
  TwoByTwo f;
  const std::vector<DrainPart> parts{f.sw(f.l1)};
  auto rep = what_if_drain(f.t, f.lids, f.before, parts, f.options());
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->lost_pairs, 10u);
  EXPECT_TRUE(rep->sm_cut_off);
}

// Partition 0x10: h0 full, h2 and h3 limited. With L0 drained the pairs it loses are h0<->h2 and h0<->h3
// (limited h2, h3 never matched, IBA 10.9.3): 4 ordered pairs. Partition 0x20 holds only h2 and h3: untouched.
TEST(DrainPlan, PartitionsCountTheirMembersLostPairsAndListTheirGroups) {
  TwoByTwo f;
  PartitionsSpec spec;
  PartitionSpec p10;
  p10.name = "p10";
  p10.pkey = 0x10;
  p10.ipoib.enabled = true;
  p10.ipoib.scopes = {2};
  for (auto [guid, m] : std::vector<std::pair<Guid, Membership>>{
           {0x11, Membership::kFull}, {0x31, Membership::kLimited}, {0x41, Membership::kLimited}}) {
    PartitionMember member;
    member.selector = MemberSelector::kPortGuid;
    member.guid = guid;
    member.membership = m;
    p10.members.push_back(member);
  }
  PartitionSpec p20 = p10;
  p20.name = "p20";
  p20.pkey = 0x20;
  p20.ipoib.enabled = false;
  p20.members.erase(p20.members.begin());
  p20.members[0].membership = Membership::kFull;
  spec.partitions = {p10, p20};
  DrainOptions o = f.options();
  o.partitions = &spec;
  const std::vector<DrainPart> parts{f.sw(f.l0)};
  auto rep = what_if_drain(f.t, f.lids, f.before, parts, o);
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  ASSERT_EQ(rep->partitions.size(), 1u);
  EXPECT_EQ(rep->partitions[0].name, "p10");
  EXPECT_EQ(rep->partitions[0].lost_pairs, 4u);
  ASSERT_EQ(rep->partitions[0].mgids.size(), 1u);
  // ff12:401b:8010::ffff:ffff, the IPoIB broadcast group of P_Key 0x8010 (RFC 4391)
  const std::array<std::uint8_t, 16> want{0xff, 0x12, 0x40, 0x1b, 0x80, 0x10, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(rep->partitions[0].mgids[0], want);
}

// Three spines S0..S2 (LIDs 7, 8, 9), two leaves: L0 (LID 5) ports 1..3 -> S0..S2, host h0 (LID 1) on port 4;
// L1 (LID 6) likewise with h1 (LID 2). Before: the leaves send each other's host and LID by S1 (port 2);
// spines go down directly and reach each other through L0. Drain the cable L1 port 1 - S0 port 2. The routes
// it carried are the only broken ones: S0 to h1 and to L1 (now down to L0, port 1) and L1 to S0 (now up by
// S1 or S2). A minimal repair changes those three entries only: block 0 of S0 and of L1, nothing else.
TEST(DrainPlan, MinimalRepairRewritesOnlyTheBrokenRoutes) {
  Topology t;
  LidMap lids;
  const auto add = [&](NodeType type, unsigned ports, Guid guid, const char* name) {
    Node n = make_node(type, ports, guid);
    n.description = name;
    for (PortNum p = 0; p < n.ports.size(); ++p) n.ports[p].guid = type == NodeType::kSwitch ? guid : guid + p;
    return t.add_node(std::move(n)).value();
  };
  const NodeIndex s[3] = {add(NodeType::kSwitch, 2, 0x300, "S0"), add(NodeType::kSwitch, 2, 0x400, "S1"),
                          add(NodeType::kSwitch, 2, 0x500, "S2")};
  const NodeIndex l0 = add(NodeType::kSwitch, 4, 0x100, "L0");
  const NodeIndex l1 = add(NodeType::kSwitch, 4, 0x200, "L1");
  const NodeIndex h0 = add(NodeType::kCa, 1, 0x10, "h0");
  const NodeIndex h1 = add(NodeType::kCa, 1, 0x20, "h1");
  for (PortNum i = 0; i < 3; ++i) {
    ASSERT_TRUE(t.connect(l0, i + 1, s[i], 1).ok());
    ASSERT_TRUE(t.connect(l1, i + 1, s[i], 2).ok());
  }
  ASSERT_TRUE(t.connect(h0, 1, l0, 4).ok());
  ASSERT_TRUE(t.connect(h1, 1, l1, 4).ok());
  t.sm_node = h0;
  t.sm_port = 1;
  for (auto [n, p, lid] : std::vector<std::tuple<NodeIndex, PortNum, Lid>>{
           {h0, 1, 1}, {h1, 1, 2}, {l0, 0, 5}, {l1, 0, 6}, {s[0], 0, 7}, {s[1], 0, 8}, {s[2], 0, 9}}) {
    ASSERT_TRUE(lids.assign(n, p, lid, 0).ok());
  }
  RoutingTables before;
  before.engine = "by hand";
  before.lft.resize(t.size());
  const auto lft = [&](NodeIndex sw, std::vector<std::pair<Lid, PortNum>> entries) {
    Lft table(9);
    for (auto [lid, port] : entries) table.set(lid, port);
    before.lft[sw] = table;
  };
  lft(l0, {{1, 4}, {2, 2}, {5, 0}, {6, 2}, {7, 1}, {8, 2}, {9, 3}});
  lft(l1, {{1, 2}, {2, 4}, {5, 2}, {6, 0}, {7, 1}, {8, 2}, {9, 3}});
  for (int i = 0; i < 3; ++i) {
    lft(s[i], {{1, 1}, {2, 2}, {5, 1}, {6, 2}, {7, 1}, {8, 1}, {9, 1}});
    before.lft[s[i]].set(static_cast<Lid>(7 + i), 0);
  }
  DrainPart cable;
  cable.kind = DrainPart::Kind::kCable;
  cable.node = l1;
  cable.port = 1;
  cable.peer = s[0];
  cable.peer_port = 2;
  DrainOptions o;
  o.chain = {"minhop"};
  o.quality.perm_seeds = 2;
  o.quality.ebb_samples = 0;
  o.quality.threads = 1;
  o.minimal_repair = true;
  auto rep = what_if_drain(t, lids, before, std::vector<DrainPart>{cable}, o);
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->lost_pairs, 0u);
  EXPECT_EQ(rep->lft_blocks, 2u) << rep->made_by;
  EXPECT_EQ(rep->switches_changed, 2u);
  EXPECT_EQ(rep->entries_repaired, 3u) << rep->made_by;
  const Lft& s0 = rep->tables_after.lft[s[0]];
  EXPECT_EQ(s0.get(2), 1);  // h1: down to L0, which goes up again by S1
  EXPECT_EQ(s0.get(6), 1);
  EXPECT_EQ(s0.get(1), 1);  // unchanged
  const PortNum l1_to_s0 = rep->tables_after.lft[l1].get(7);
  EXPECT_TRUE(l1_to_s0 == 2 || l1_to_s0 == 3) << static_cast<int>(l1_to_s0);
  for (NodeIndex n : {l0, s[1], s[2]}) EXPECT_EQ(rep->tables_after.lft[n], before.lft[n]) << n;
}

// Both hosts of one leaf of the 2-ary 3-tree drained by their cables: counted up from the CAs that leaf is
// no leaf any more and ftree declines; the sweep then retries ftree with the top switches of the tables it
// programmed as roots, and so does the what-if, so the tables after are still ftree's. The two hosts lose
// everything: 2 x 6 pairs each way plus the pair between them.
TEST(DrainPlan, FtreeIsRetriedWithTheRootsOfTheTablesBefore) {
  auto topo = make_kary_ntree(2, 3);
  ASSERT_TRUE(topo.ok());
  auto lids = assign_lids(*topo, {}, LidAssignOptions{});
  ASSERT_TRUE(lids.ok());
  auto before = route_with_chain({"ftree"}, RoutingOptions{}, *topo, *lids);
  ASSERT_TRUE(before.ok()) << before.error().message;
  ASSERT_FALSE(before->tables.tree_roots.empty());
  const NodeIndex leaf = topo->switches().front();
  std::vector<DrainPart> parts;
  for (PortNum p = 1; p <= topo->node(leaf).num_ports; ++p) {
    const Port& port = topo->node(leaf).ports[p];
    if (!port.connected() || topo->node(port.peer).is_switch()) continue;
    DrainPart part;
    part.kind = DrainPart::Kind::kCable;
    part.node = leaf;
    part.port = p;
    part.peer = port.peer;
    part.peer_port = port.peer_port;
    parts.push_back(part);
  }
  ASSERT_EQ(parts.size(), 2u);
  DrainOptions o;
  o.chain = {"ftree", "minhop"};
  o.minimal_repair = false;
  o.quality.perm_seeds = 2;
  o.quality.ebb_samples = 0;
  auto rep = what_if_drain(*topo, *lids, before->tables, parts, o);
  ASSERT_TRUE(rep.ok()) << rep.error().message;
  EXPECT_EQ(rep->engine_after, "ftree") << rep->made_by;
  EXPECT_EQ(rep->lost_pairs, 2u * 2u * 6u + 2u);
  EXPECT_EQ(rep->cut_off, 2u);
}

TEST(DrainPlan, BeforeTablesMissingASwitchAreRefused) {
  TwoByTwo f;
  f.before.lft.resize(1);
  const std::vector<DrainPart> parts{f.sw(f.s0)};
  auto rep = what_if_drain(f.t, f.lids, f.before, parts, f.options());
  ASSERT_FALSE(rep.ok());
  EXPECT_EQ(rep.error().code, ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace smd::drain_plan_test
