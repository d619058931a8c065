// The multicast verifier: right trees pass; each injected fault (an extra port making a loop, a missing
// member port, a cut, a one-sided link, a port to a non-member, a stray entry) is refused with a message
// naming the MLID, the switch and the port.
#include "routing/mcast/mcast_verify.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/mcast/mcast_tree.h"

namespace smd::mcast_verify_test {
namespace {

// leaf-spine 2 leaves x 2 spines x 2 hosts: hosts 0,1 on leaf-0 ports 1,2; hosts 2,3 on leaf-1; leaf port
// 3 to spine-0, 4 to spine-1; spine port l+1 to leaf l. Nodes: hosts 0..3, leaf-0 4, leaf-1 5, spine-0 6,
// spine-1 7. The group: hosts 0, 1, 2, rooted by hand at spine-0.
struct Fixture {
  Topology t = make_leaf_spine({2, 2, 2, 1}).value();
  McastTables tables;
  Guid leaf0 = t.node(4).guid, leaf1 = t.node(5).guid, spine0 = t.node(6).guid, spine1 = t.node(7).guid;
  Fixture() {
    McastTree& tree = tables.trees[0xC005];
    tree.root = spine0;
    tree.members = {{t.node(0).guid, 1}, {t.node(1).guid, 1}, {t.node(2).guid, 1}};
    std::sort(tree.members.begin(), tree.members.end());
    tree.switches = {{leaf0, mask({1, 2, 3})}, {leaf1, mask({1, 3})}, {spine0, mask({1, 2})}};
    std::sort(tree.switches.begin(), tree.switches.end(), [](auto& a, auto& b) { return a.first < b.first; });
  }
  static McastPortMask mask(std::initializer_list<PortNum> ports) {
    McastPortMask m;
    for (PortNum p : ports) m.set(p);
    return m;
  }
  McastPortMask& at(Guid sw) {
    for (auto& [g, m] : tables.trees.at(0xC005).switches) {
      if (g == sw) return m;
    }
    tables.trees.at(0xC005).switches.emplace_back(sw, McastPortMask{});
    auto& s = tables.trees.at(0xC005).switches;
    std::sort(s.begin(), s.end(), [](auto& a, auto& b) { return a.first < b.first; });
    return at(sw);
  }
  std::string error() const {
    auto v = verify_mcast(t, tables);
    EXPECT_FALSE(v.ok());
    if (v.ok()) return "";
    EXPECT_EQ(v.error().code, ErrorCode::kVerifyFailed);
    return v.error().message;
  }
};

void expect_has(const std::string& message, const std::string& part) {
  EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

TEST(McastVerify, TheHandTreePassesWithHandCountedFloods) {
  Fixture f;
  auto v = verify_mcast(f.t, f.tables);
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_EQ(v->groups, 1u);
  EXPECT_EQ(v->trees, 1u);
  EXPECT_EQ(v->switch_entries, 3u);
  EXPECT_EQ(v->floods, 3u);
  EXPECT_EQ(v->deliveries, 6u);
}

TEST(McastVerify, AnExtraPortThatClosesALoopIsRefused) {
  // leaf-0 and leaf-1 also through spine-1, both ends: leaf-0 -> spine-0 -> leaf-1 -> spine-1 -> leaf-0.
  Fixture f;
  f.at(f.leaf0).set(4);
  f.at(f.leaf1).set(4);
  f.at(f.spine1) = Fixture::mask({1, 2});
  const std::string e = f.error();
  expect_has(e, "MLID 0xc005");
  expect_has(e, "revisits switch");
  expect_has(e, "1 of 1 multicast groups fail");
}

TEST(McastVerify, AMissingMemberPortIsRefused) {
  Fixture f;
  f.at(f.leaf1).reset(1);  // host 2
  const std::string e = f.error();
  expect_has(e, "MLID 0xc005");
  expect_has(e, "never reaches member CA " + describe_node(f.t.node(2)) + " port 1");
  expect_has(e, "switch " + describe_node(f.t.node(5)) + " port 1");
}

TEST(McastVerify, ACutIsRefused) {
  Fixture f;
  f.at(f.spine0).reset(2);
  f.at(f.leaf1).reset(3);
  const std::string e = f.error();
  expect_has(e, "MLID 0xc005");
  expect_has(e, "never reaches member");
}

TEST(McastVerify, AOneSidedLinkLeavesTheTree) {
  Fixture f;
  f.at(f.leaf1).reset(3);  // spine-0 still sends to leaf-1, which does not send back
  const std::string e = f.error();
  expect_has(e, "switch " + describe_node(f.t.node(6)) + " port 2: leads to switch " + describe_node(f.t.node(5)) +
                    " port 3, which does not send back");
}

TEST(McastVerify, APortToANonMemberIsRefused) {
  Fixture f;
  f.at(f.leaf1).set(2);  // host 3 is no member
  expect_has(f.error(), "port 2: leads to CA " + describe_node(f.t.node(3)) + " port 1, not a member");
  Fixture g;
  g.at(g.spine0).set(0);
  expect_has(g.error(), "the switch is in its mask but not a member");
}

TEST(McastVerify, AStrayEntryIsRefused) {
  Fixture f;
  f.at(f.spine1) = Fixture::mask({});
  expect_has(f.error(), "switch " + describe_node(f.t.node(7)) + " port 0: holds the MLID but no member");
}

TEST(McastVerify, ABuiltTreeWithOnePortRemovedAnywhereIsAlwaysRefused) {
  // Every port of every mask of real trees: taking it out must break the group, as no port of a minimal
  // tree is redundant.
  const Topology t = make_kary_ntree(3, 3).value();
  std::vector<McastGroupPorts> groups;
  for (unsigned g = 0; g < 6; ++g) {
    McastGroupPorts group{static_cast<Lid>(0xC000 + g), {}};
    for (unsigned h = g; h < t.cas().size(); h += 5 + g) group.members.emplace_back(t.cas()[h], 1);
    groups.push_back(group);
  }
  const McastTables good = McastTreeBuilder(t).build(groups).value();
  ASSERT_TRUE(verify_mcast(t, good).ok());
  unsigned tried = 0;
  for (const auto& entry : good.trees) {
    const auto mlid = entry.first;  // not a binding: the lambda captures it (clang < 16 cannot)
    const auto& tree = entry.second;
    for (std::size_t s = 0; s < tree.switches.size(); ++s) {
      tree.switches[s].second.for_each([&](PortNum p) {
        McastTables bad = good;
        bad.trees.at(mlid).switches[s].second.reset(p);
        EXPECT_FALSE(verify_mcast(t, bad).ok()) << format_mlid(mlid) << " switch " << s << " port " << int(p);
        ++tried;
      });
    }
  }
  EXPECT_GT(tried, 50u);
}

}  // namespace
}  // namespace smd::mcast_verify_test
