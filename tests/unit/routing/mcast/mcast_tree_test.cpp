// Multicast trees: hand-checked masks on a small fabric, many generated fabrics with random member sets
// (each tree checked as a graph by the test itself, independently of the verifier's floods), the
// incremental update, the rebuild list after a cable goes, and the spread against OpenSM's first-port rule.
#include "routing/mcast/mcast_tree.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/mcast/mcast_quality.h"
#include "routing/mcast/mcast_verify.h"
#include "routing/model/hop_table.h"

namespace smd::mcast_tree_test {
namespace {

McastPortMask mask_of(std::initializer_list<PortNum> ports) {
  McastPortMask m;
  for (PortNum p : ports) m.set(p);
  return m;
}

// Independent of check_mcast_tree: the masks, read as an undirected graph over switches, form one tree
// (symmetric edges, edges = switches - 1, connected) and each member's port is in its switch's mask.
void expect_a_tree(const Topology& topo, const McastTree& tree, const std::string& what) {
  std::map<NodeIndex, McastPortMask> masks;
  for (const auto& [guid, m] : tree.switches) masks[*topo.find(guid)] = m;
  std::size_t edge_ends = 0;
  for (const auto& entry : masks) {
    const NodeIndex n = entry.first;  // not a binding: the lambda captures it (clang < 16 cannot)
    entry.second.for_each([&](PortNum p) {
      if (p == 0) return;
      const Port& port = topo.node(n).ports[p];
      ASSERT_TRUE(port.connected()) << what;
      if (!topo.node(port.peer).is_switch()) return;
      ASSERT_TRUE(masks.contains(port.peer) && masks[port.peer].test(port.peer_port)) << what << ": asymmetric edge";
      ++edge_ends;
    });
  }
  ASSERT_EQ(edge_ends, 2 * (masks.size() - 1)) << what << ": not a tree";
  std::set<NodeIndex> reached{masks.begin()->first};
  std::vector<NodeIndex> todo{masks.begin()->first};
  while (!todo.empty()) {
    const NodeIndex n = todo.back();
    todo.pop_back();
    masks[n].for_each([&](PortNum p) {
      if (p == 0) return;
      const Port& port = topo.node(n).ports[p];
      if (topo.node(port.peer).is_switch() && reached.insert(port.peer).second) todo.push_back(port.peer);
    });
  }
  ASSERT_EQ(reached.size(), masks.size()) << what << ": not connected";
  for (const McastMember& m : tree.members) {
    const NodeIndex n = *topo.find(m.node_guid);
    if (topo.node(n).is_switch()) {
      ASSERT_TRUE(masks[n].test(0)) << what;
    } else {
      const Port& port = topo.node(n).ports[m.port];
      ASSERT_TRUE(masks[port.peer].test(port.peer_port)) << what << ": member port missing";
    }
  }
}

// Random member sets: `count` groups of 2..max endports (CA ports and now and then a switch's port 0).
std::vector<McastGroupPorts> random_groups(const Topology& topo, unsigned count, unsigned max, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<McastGroupPorts> out;
  for (unsigned g = 0; g < count; ++g) {
    McastGroupPorts group;
    group.mlid = static_cast<Lid>(kFirstMulticastLid + g);
    const unsigned size = 2 + static_cast<unsigned>(rng() % (max - 1));
    for (unsigned i = 0; i < size; ++i) {
      if (rng() % 8 == 0) {
        group.members.emplace_back(topo.switches()[rng() % topo.switches().size()], 0);
      } else {
        group.members.emplace_back(topo.cas()[rng() % topo.cas().size()], 1);
      }
    }
    out.push_back(group);
  }
  return out;
}

TEST(McastTree, TwoSwitchesHandCheckedMasks) {
  // 2 hosts per switch, 1 cable at port 1; host h on port 2 + h % 2; nodes: hosts 0..3, sw-0 4, sw-1 5.
  const Topology t = make_two_switch(1, 2).value();
  const McastTreeBuilder b(t);
  const auto tables = b.build({{0xC000, {{0, 1}, {3, 1}, {4, 0}}}, {0xC001, {{0, 1}, {1, 1}}}, {0xC002, {{2, 1}}}});
  ASSERT_TRUE(tables.ok()) << tables.error().message;
  const McastTree& a = tables->trees.at(0xC000);
  ASSERT_EQ(a.switches.size(), 2u);
  EXPECT_EQ(*a.mask(t.node(4).guid), mask_of({0, 1, 2}));  // itself, the cable, host 0
  EXPECT_EQ(*a.mask(t.node(5).guid), mask_of({1, 3}));     // the cable, host 3
  const McastTree& b1 = tables->trees.at(0xC001);
  ASSERT_EQ(b1.switches.size(), 1u);
  EXPECT_EQ(b1.root, t.node(4).guid);
  EXPECT_EQ(*b1.mask(t.node(4).guid), mask_of({2, 3}));
  const McastTree& c = tables->trees.at(0xC002);
  EXPECT_TRUE(c.switches.empty()) << "one member port: no tree, as OpenSM";
  EXPECT_EQ(c.members.size(), 1u);
  EXPECT_TRUE(verify_mcast(t, *tables).ok());
}

TEST(McastTree, ParallelCablesAreSharedOutBetweenGroups) {
  // Two cables between the switches: two groups spanning both switches take one cable each. The first
  // cable for both (OpenSM's first least-hop port) would put 2 groups on one link.
  const Topology t = make_two_switch(2, 2).value();
  const auto tables = McastTreeBuilder(t).build({{0xC000, {{0, 1}, {2, 1}}}, {0xC001, {{1, 1}, {3, 1}}}});
  ASSERT_TRUE(tables.ok());
  const McastLinkLoad load = mcast_link_load(t, *tables);
  EXPECT_EQ(load.links, 2u);
  EXPECT_EQ(load.links_used, 2u);
  EXPECT_EQ(load.max_groups_per_link, 1u);
}

TEST(McastTree, BadMembersAreRefusedByName) {
  const Topology t = make_two_switch(1, 2).value();
  const McastTreeBuilder b(t);
  auto r = b.build({{0xC000, {{4, 3}}}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidInput);
  EXPECT_NE(r.error().message.find("MLID 0xc000"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("port 3 is not an endport"), std::string::npos) << r.error().message;
  EXPECT_FALSE(b.build({{0x0010, {{0, 1}}}}).ok());
  EXPECT_FALSE(b.build({{0xC000, {{0, 1}}}, {0xC000, {{1, 1}}}}).ok());
  EXPECT_FALSE(b.build({{0xC000, {{99, 1}}}}).ok());
}

struct GenCase {
  const char* name;
  Result<Topology> (*make)();
};

class McastGenerated : public ::testing::TestWithParam<GenCase> {};

TEST_P(McastGenerated, EveryTreeIsATreeAndPassesTheVerifier) {
  const Topology t = GetParam().make().value();
  const McastTreeBuilder b(t);
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto groups = random_groups(t, 40, std::min<unsigned>(24, static_cast<unsigned>(t.cas().size())), seed);
    const auto tables = b.build(groups);
    ASSERT_TRUE(tables.ok()) << tables.error().message;
    for (const auto& [mlid, tree] : tables->trees) {
      ASSERT_TRUE(tree.unreachable.empty());
      if (tree.members.size() >= 2) expect_a_tree(t, tree, GetParam().name + std::string(" ") + format_mlid(mlid));
    }
    const auto v = verify_mcast(t, *tables);
    ASSERT_TRUE(v.ok()) << v.error().message;
    EXPECT_EQ(v->groups, groups.size());
    std::uint64_t expect_deliveries = 0;
    for (const auto& [mlid, tree] : tables->trees) {
      const std::uint64_t m = tree.members.size();
      if (m >= 2) expect_deliveries += m * (m - 1);
    }
    EXPECT_EQ(v->deliveries, expect_deliveries);
  }
}

INSTANTIATE_TEST_SUITE_P(Fabrics, McastGenerated,
                         ::testing::Values(GenCase{"kary2_3", [] { return make_kary_ntree(2, 3); }},
                                           GenCase{"kary4_3", [] { return make_kary_ntree(4, 3); }},
                                           GenCase{"leafspine",
                                                   [] {
                                                     return make_leaf_spine({8, 4, 4, 2});
                                                   }},
                                           GenCase{"fattree3", [] { return make_fat_tree3({}); }},
                                           GenCase{"ring8", [] { return make_torus({8}, 2); }},
                                           GenCase{"torus4x4",
                                                   [] {
                                                     return make_torus({4, 4}, 2);
                                                   }},
                                           GenCase{"torus3x3x3",
                                                   [] {
                                                     return make_torus({3, 3, 3}, 1);
                                                   }},
                                           GenCase{"random1", [] { return make_random(20, 5, 2, 11); }},
                                           GenCase{"random2", [] { return make_random(40, 4, 1, 12); }},
                                           GenCase{"single", [] { return make_single_switch(6); }}),
                         [](const ::testing::TestParamInfo<GenCase>& row) { return std::string(row.param.name); });

TEST(McastTree, UpdateRecomputesOnlyTheGivenGroupsAndRemovesEmptyOnes) {
  const Topology t = make_kary_ntree(4, 2).value();
  const McastTreeBuilder b(t);
  const auto groups = random_groups(t, 10, 8, 5);
  const McastTables before = b.build(groups).value();
  McastGroupPorts changed = groups[3];
  changed.members.emplace_back(t.cas().back(), 1);
  const McastGroupPorts gone{groups[5].mlid, {}};
  const McastTables after = b.update(before, {changed, gone}).value();
  EXPECT_EQ(after.trees.size(), before.trees.size() - 1);
  EXPECT_FALSE(after.trees.contains(groups[5].mlid));
  for (const auto& [mlid, tree] : after.trees) {
    if (mlid == changed.mlid) continue;
    EXPECT_EQ(tree.switches, before.trees.at(mlid).switches) << format_mlid(mlid);
  }
  const McastTree& grown = after.trees.at(changed.mlid);
  EXPECT_TRUE(
      std::binary_search(grown.members.begin(), grown.members.end(), McastMember{t.node(t.cas().back()).guid, 1}));
  EXPECT_TRUE(verify_mcast(t, after).ok());
}

TEST(McastTree, JoinsGrowTheTreeTheyHadAndLeavesRebuildIt) {
  // A join storm, one pass at a time: each pass adds members; the tree of the pass before stays whole
  // (same root, every switch's mask a subset of its new mask), so a pass writes only the new branches.
  const Topology t = make_kary_ntree(4, 3).value();
  const McastTreeBuilder b(t);
  McastGroupPorts g{kFirstMulticastLid, {}};
  McastTables tables;
  std::mt19937_64 rng(7);
  std::vector<NodeIndex> cas = t.cas();
  std::shuffle(cas.begin(), cas.end(), rng);
  for (std::size_t pass = 0; pass < 8; ++pass) {
    for (std::size_t i = pass * 8; i < pass * 8 + 8; ++i) g.members.emplace_back(cas[i], 1);
    const McastTables next = b.update(tables, {g}).value();
    ASSERT_TRUE(verify_mcast(t, next).ok()) << "pass " << pass;
    const McastTree& now = next.trees.at(g.mlid);
    EXPECT_EQ(now.members.size(), g.members.size());
    if (auto it = tables.trees.find(g.mlid); it != tables.trees.end() && it->second.root != 0) {
      EXPECT_EQ(now.root, it->second.root) << "pass " << pass;
      for (const auto& [guid, old_mask] : it->second.switches) {
        const McastPortMask* m = now.mask(guid);
        ASSERT_NE(m, nullptr) << "pass " << pass << ": switch " << format_guid(guid) << " left the tree";
        old_mask.for_each([&](PortNum p) { EXPECT_TRUE(m->test(p)) << "pass " << pass << " port " << unsigned(p); });
      }
    }
    tables = next;
  }
  // A leave is not a join: the tree is placed afresh (no branch is left hanging to a member that left).
  g.members.resize(g.members.size() / 2);
  const McastTables after = b.update(tables, {g}).value();
  ASSERT_TRUE(verify_mcast(t, after).ok());
  EXPECT_EQ(after.trees.at(g.mlid).members.size(), g.members.size());
}

TEST(McastTree, ACableGoneListsExactlyTheGroupsWhoseTreeCrossedIt) {
  const Topology t = make_leaf_spine({6, 3, 4, 1}).value();
  const auto groups = random_groups(t, 30, 10, 9);
  const McastTables tables = McastTreeBuilder(t).build(groups).value();
  EXPECT_TRUE(groups_to_rebuild(t, tables, groups).empty());
  // Cut leaf-0's cable to spine-0 (leaf port hosts + 1).
  Topology cut = t;
  const NodeIndex leaf0 = *t.find(t.node(t.switches()[0]).guid);
  ASSERT_EQ(t.node(leaf0).description, "leaf-0");
  const PortNum up = 5;
  const Port port = t.node(leaf0).ports[up];
  cut.mutable_node(leaf0).ports[up].peer = kNoNode;
  cut.mutable_node(port.peer).ports[port.peer_port].peer = kNoNode;
  std::vector<Lid> expect;
  for (const auto& [mlid, tree] : tables.trees) {
    const McastPortMask* m = tree.mask(t.node(leaf0).guid);
    if (m != nullptr && m->test(up)) expect.push_back(mlid);
  }
  ASSERT_FALSE(expect.empty()) << "the test needs a group on that cable";
  EXPECT_EQ(groups_to_rebuild(cut, tables, groups), expect);
  const auto rebuilt = McastTreeBuilder(cut).update(tables, [&] {
    std::vector<McastGroupPorts> again;
    for (const McastGroupPorts& g : groups) {
      if (std::find(expect.begin(), expect.end(), g.mlid) != expect.end()) again.push_back(g);
    }
    return again;
  }());
  ASSERT_TRUE(rebuilt.ok());
  const auto v = verify_mcast(cut, *rebuilt);
  EXPECT_TRUE(v.ok()) << v.error().message;
}

TEST(McastTree, MembersWithoutACableAreUnreachableNotAnError) {
  Topology t = make_two_switch(1, 2).value();
  const Port p = t.node(3).ports[1];
  t.mutable_node(3).ports[1].peer = kNoNode;
  t.mutable_node(p.peer).ports[p.peer_port].peer = kNoNode;
  const auto tables = McastTreeBuilder(t).build({{0xC000, {{0, 1}, {1, 1}, {3, 1}}}});
  ASSERT_TRUE(tables.ok());
  const McastTree& tree = tables->trees.at(0xC000);
  EXPECT_EQ(tree.unreachable, (std::vector<McastMember>{{t.node(3).guid, 1}}));
  EXPECT_EQ(tree.members.size(), 2u);
  EXPECT_TRUE(verify_mcast(t, *tables).ok());
}

// OpenSM's choice, written out here: the root is the first switch (topology order) with the least
// maximum hop count to the member switches; each member switch's branch leaves every switch by the first
// port (lowest number) whose far switch is one hop nearer to it.
McastTables opensm_like(const Topology& t, const std::vector<McastGroupPorts>& groups) {
  const SwitchGraph g = SwitchGraph::build(t);
  const HopTable h = HopTable::build(g, 1);
  McastTables out;
  for (const McastGroupPorts& group : groups) {
    std::map<SwitchIndex, McastPortMask> masks;
    std::set<SwitchIndex> member_sw;
    for (const auto& [n, p] : group.members) {
      const LidTarget target = port_target(t, g, n, p);
      member_sw.insert(target.sw);
      masks[target.sw].set(target.port);
    }
    SwitchIndex root = 0;
    unsigned best = 1000;
    for (SwitchIndex r = 0; r < g.num_switches(); ++r) {
      unsigned far = 0;
      for (SwitchIndex m : member_sw) far = std::max<unsigned>(far, h.hops(r, m));
      if (far < best) best = far, root = r;
    }
    for (SwitchIndex m : member_sw) {
      for (SwitchIndex cur = root; cur != m;) {
        for (const SwitchGraph::Link& l : g.links(cur)) {
          if (h.hops(l.peer, m) + 1 == h.hops(cur, m)) {
            masks[cur].set(l.port);
            masks[l.peer].set(g.peer_port(cur, l.port));
            cur = l.peer;
            break;
          }
        }
      }
    }
    McastTree& tree = out.trees[group.mlid];
    for (const auto& [s, m] : masks) tree.switches.emplace_back(t.node(g.node(s)).guid, m);
  }
  return out;
}

// Groups of one host on each of `leaves` distinct random leaves (host h of leaf l is CA l * 4 + h).
std::vector<McastGroupPorts> across_leaves(const Topology& t, unsigned count, unsigned leaves, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const unsigned all = static_cast<unsigned>(t.cas().size() / 4);
  std::vector<McastGroupPorts> out;
  for (unsigned g = 0; g < count; ++g) {
    McastGroupPorts group{static_cast<Lid>(kFirstMulticastLid + g), {}};
    std::set<unsigned> picked;
    while (picked.size() < leaves) picked.insert(static_cast<unsigned>(rng() % all));
    for (unsigned l : picked) group.members.emplace_back(t.cas()[l * 4 + rng() % 4], 1);
    out.push_back(group);
  }
  return out;
}

TEST(McastTree, GroupsSpreadOverTheSpinesWhereOpenSmPilesThemOnOne) {
  // 8 leaves x 4 spines, 64 groups of hosts on 3 leaves each: OpenSM's rule roots every group at spine-0.
  const Topology t = make_leaf_spine({8, 4, 4, 1}).value();
  const auto groups = across_leaves(t, 64, 3, 21);
  const McastTables ours = McastTreeBuilder(t).build(groups).value();
  const McastTables naive = opensm_like(t, groups);
  const McastLinkLoad a = mcast_link_load(t, ours);
  const McastLinkLoad b = mcast_link_load(t, naive);
  std::printf("leaf-spine 8x4, 64 groups: max groups per link %u (OpenSM's rule: %u)\n", a.max_groups_per_link,
              b.max_groups_per_link);
  EXPECT_EQ(b.links_used, 8u) << "OpenSM's trees all use spine-0's 8 cables";
  EXPECT_EQ(a.links_used, 32u) << "ours use every cable";
  EXPECT_LE(a.max_groups_per_link * 3, b.max_groups_per_link)
      << a.max_groups_per_link << " vs " << b.max_groups_per_link;
  std::map<Guid, unsigned> roots;
  for (const auto& [mlid, tree] : ours.trees) {
    if (tree.switches.size() > 1) ++roots[tree.root];
  }
  EXPECT_EQ(roots.size(), 4u);
  for (const auto& [guid, n] : roots) EXPECT_GE(n, 12u) << format_guid(guid);
}

TEST(McastTree, SpreadOnAThreeLevelTreeToo) {
  const Topology t = make_kary_ntree(4, 3).value();  // 16 leaves of 4 hosts
  const auto groups = across_leaves(t, 96, 5, 33);
  const McastTables ours = McastTreeBuilder(t).build(groups).value();
  const McastLinkLoad a = mcast_link_load(t, ours);
  const McastLinkLoad b = mcast_link_load(t, opensm_like(t, groups));
  std::printf("4-ary 3-tree, 96 groups: max groups per link %u (OpenSM's rule: %u)\n", a.max_groups_per_link,
              b.max_groups_per_link);
  EXPECT_LE(a.max_groups_per_link * 2, b.max_groups_per_link)
      << a.max_groups_per_link << " vs " << b.max_groups_per_link;
}

}  // namespace
}  // namespace smd::mcast_tree_test
