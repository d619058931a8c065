// connected_components / describe_islands on small graphs whose parts are known by construction.
#include "routing/model/components.h"

#include <gtest/gtest.h>

#include <string>

#include "routing/fabric_gen/fabric_gen.h"
#include "routing/netfile/netfile.h"

namespace smd::components_test {
namespace {

TEST(Components, AGeneratedFabricIsOnePiece) {
  auto t = make_kary_ntree(2, 3);
  ASSERT_TRUE(t.ok());
  const auto c = connected_components(*t);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].size(), t->size());
}

TEST(Components, IslandsAndLoneNodesAreNamed) {
  // Island 1: h0 - s0 - h1. Island 2: s1 - h2. Island 3: h3 alone.
  const std::string text(
      "Hca 1 \"h0\"\n[1] \"s0\"[1]\n\nSwitch 3 \"s0\"\n[1] \"h0\"[1]\n[2] \"h1\"[1]\n\nHca 1 \"h1\"\n[1] \"s0\"[2]\n\n"
      "Switch 2 \"s1\"\n[1] \"h2\"[1]\n\nHca 1 \"h2\"\n[1] \"s1\"[1]\n\nHca 1 \"h3\"\n");
  auto t = parse_netfile(text, "islands.net");
  ASSERT_TRUE(t.ok()) << t.error().message;
  const auto c = connected_components(*t);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], (std::vector<NodeIndex>{0, 1, 2}));
  EXPECT_EQ(c[1], (std::vector<NodeIndex>{3, 4}));
  EXPECT_EQ(c[2], (std::vector<NodeIndex>{5}));
  EXPECT_EQ(describe_islands(*t, c), "3 islands: [3 nodes: h0, s0, h1] [2 nodes: s1, h2] [1 node: h3]");
  EXPECT_EQ(describe_islands(*t, c, 1, 2), "3 islands: [3 nodes: h0, ...] [2 nodes: s1, ...] and 1 more");
}

TEST(Components, ACaBridgingTwoSwitchGroupsForwardsNothing) {
  // The tester's netfile: sw-a and sw-b joined only through h0's two ports. connected_components sees one
  // piece; LID routing sees two islands, h0 in both (h2 on sw-a can never reach h1 on sw-b).
  const std::string text(
      "Hca 2 \"h0\"\n[1] \"sw-a\"[1]\n[2] \"sw-b\"[1]\n\nHca 1 \"h1\"\n[1] \"sw-b\"[2]\n\n"
      "Hca 1 \"h2\"\n[1] \"sw-a\"[2]\n\nSwitch 4 \"sw-a\"\n[1] \"h0\"[1]\n[2] \"h2\"[1]\n\n"
      "Switch 4 \"sw-b\"\n[1] \"h0\"[2]\n[2] \"h1\"[1]\n");
  auto t = parse_netfile(text, "castransit.net");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(connected_components(*t).size(), 1u);
  const auto c = forwarding_components(*t);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(describe_islands(*t, c), "2 islands: [3 nodes: h0, h2, sw-a] [3 nodes: h0, h1, sw-b]");
  // With a switch cable between the groups it is one island again, h0 listed once; two CAs cabled back
  // to back are an island of their own, and a generated fabric is one piece.
  const std::string joined(
      "Hca 2 \"h0\"\n[1] \"sw-a\"[1]\n[2] \"sw-b\"[1]\n\nHca 1 \"h1\"\n[1] \"sw-b\"[2]\n\n"
      "Hca 1 \"h2\"\n[1] \"sw-a\"[2]\n\nSwitch 4 \"sw-a\"\n[1] \"h0\"[1]\n[2] \"h2\"[1]\n[3] \"sw-b\"[3]\n\n"
      "Switch 4 \"sw-b\"\n[1] \"h0\"[2]\n[2] \"h1\"[1]\n[3] \"sw-a\"[3]\n");
  auto j = parse_netfile(joined, "joined.net");
  ASSERT_TRUE(j.ok()) << j.error().message;
  const auto one = forwarding_components(*j);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].size(), 5u);
  auto b2b = parse_netfile("Hca 1 \"x\"\n[1] \"y\"[1]\n\nHca 1 \"y\"\n[1] \"x\"[1]\n", "ca2ca.net");
  ASSERT_TRUE(b2b.ok()) << b2b.error().message;
  EXPECT_EQ(forwarding_components(*b2b), (std::vector<std::vector<NodeIndex>>{{0, 1}}));
  auto tree = make_kary_ntree(2, 3);
  ASSERT_TRUE(tree.ok());
  EXPECT_EQ(forwarding_components(*tree).size(), 1u);
}

}  // namespace
}  // namespace smd::components_test
