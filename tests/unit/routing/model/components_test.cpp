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

}  // namespace
}  // namespace smd::components_test
