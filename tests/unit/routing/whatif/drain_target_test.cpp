// Naming drained parts (routing/whatif/drain_target.h): every accepted form resolves to the node and port
// read off the drawing, and every bad argument fails with a message that names it.
#include "routing/whatif/drain_target.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/routing/hand_node.h"

namespace smd::drain_target_test {
namespace {

using test::make_node;

// leaf (0x200, "leaf 1") port 1 -> spine (0x300, "spine") port 4; host (0x10, "h0") port 1 -> leaf port 2;
// a second node also called "twin" twice, to be ambiguous.
struct Small {
  Topology t;
  NodeIndex leaf = 0, spine = 0, host = 0;
  Small() {
    Node l = make_node(NodeType::kSwitch, 8, 0x200);
    l.description = "leaf 1";
    leaf = t.add_node(std::move(l)).value();
    Node s = make_node(NodeType::kSwitch, 8, 0x300);
    s.description = "spine";
    spine = t.add_node(std::move(s)).value();
    Node h = make_node(NodeType::kCa, 1, 0x10);
    h.description = "h0";
    host = t.add_node(std::move(h)).value();
    for (Guid g : {Guid{0x400}, Guid{0x500}}) {
      Node twin = make_node(NodeType::kSwitch, 4, g);
      twin.description = "twin";
      EXPECT_TRUE(t.add_node(std::move(twin)).ok());
    }
    EXPECT_TRUE(t.connect(leaf, 1, spine, 4).ok());
    EXPECT_TRUE(t.connect(host, 1, leaf, 2).ok());
  }
};

TEST(DrainTarget, SwitchByGuidOrNameQuotedOrNot) {
  Small f;
  for (const std::string text : {"0x300", "0x0000000000000300", "spine", "\"spine\"", " spine "}) {
    auto p = resolve_drain_part(f.t, text);
    ASSERT_TRUE(p.ok()) << text << ": " << p.error().message;
    EXPECT_EQ(p->kind, DrainPart::Kind::kSwitch) << text;
    EXPECT_EQ(p->node, f.spine) << text;
    EXPECT_EQ(p->text, text);
  }
}

TEST(DrainTarget, CableFromEitherEndInBothForms) {
  Small f;
  struct Case {
    std::string text;
    NodeIndex node, peer;
    PortNum port, peer_port;
  };
  const std::vector<Case> cases{{"\"leaf 1\"[1]", f.leaf, f.spine, 1, 4}, {"leaf 1[1]", f.leaf, f.spine, 1, 4},
                                {"0x200/1", f.leaf, f.spine, 1, 4},       {"spine[4]", f.spine, f.leaf, 4, 1},
                                {"h0[1]", f.host, f.leaf, 1, 2},          {"0x10/1", f.host, f.leaf, 1, 2}};
  for (const Case& c : cases) {
    auto p = resolve_drain_part(f.t, c.text);
    ASSERT_TRUE(p.ok()) << c.text << ": " << p.error().message;
    EXPECT_EQ(p->kind, DrainPart::Kind::kCable) << c.text;
    EXPECT_EQ(p->node, c.node) << c.text;
    EXPECT_EQ(p->port, c.port) << c.text;
    EXPECT_EQ(p->peer, c.peer) << c.text;
    EXPECT_EQ(p->peer_port, c.peer_port) << c.text;
  }
}

TEST(DrainTarget, BadArgumentsSayWhatAndName) {
  Small f;
  const std::vector<std::pair<std::string, std::string>> cases{
      {"sw9", "--drain 'sw9': no node is named 'sw9'"},
      {"0x999", "--drain '0x999': no node has GUID 0x0000000000000999"},
      {"0xzz", "--drain '0xzz': not a 64-bit hex GUID"},
      {"h0", "--drain 'h0': 0x0000000000000010 (h0) is not a switch; drain a CA's cable as NAME[PORT] or GUID/PORT"},
      {"twin", "--drain 'twin': 2 nodes are named 'twin'; name it by GUID"},
      {"spine[9]", "--drain 'spine[9]': 0x0000000000000300 (spine) has no port 9 (ports 1..8)"},
      {"spine[0]", "--drain 'spine[0]': 0x0000000000000300 (spine) has no port 0 (ports 1..8)"},
      {"spine[3]", "--drain 'spine[3]': 0x0000000000000300 (spine) port 3 has no cable"},
      {"spine[x]", "--drain 'spine[x]': 'x' is not a port number (1..254)"},
      {"0x300/", "--drain '0x300/': '' is not a port number (1..254)"},
      {"", "--drain '': empty name"},
  };
  for (const auto& [text, message] : cases) {
    auto p = resolve_drain_part(f.t, text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.error().code, ErrorCode::kInvalidInput) << text;
    EXPECT_EQ(p.error().message, message);
  }
}

// A NodeDescription that reads as another node's GUID (a host named "0x0000000000000300" beside the spine of
// that GUID): the bare name is refused as ambiguous, the quoted name is the description, GUID/PORT the GUID.
TEST(DrainTarget, ANameThatIsOneNodesGuidAndAnothersDescriptionIsAmbiguous) {
  Small f;
  Node odd = test::make_node(NodeType::kSwitch, 4, 0x600);
  odd.description = "0x0000000000000300";
  const NodeIndex odd_node = f.t.add_node(std::move(odd)).value();
  auto bare = resolve_drain_part(f.t, "0x0000000000000300");
  ASSERT_FALSE(bare.ok());
  EXPECT_EQ(bare.error().message,
            "--drain '0x0000000000000300': names 0x0000000000000300 (spine) by GUID and 1 node(s) by NodeDescription; "
            "ambiguous: write the NodeDescription in double quotes");
  auto quoted = resolve_drain_part(f.t, "\"0x0000000000000300\"");
  ASSERT_TRUE(quoted.ok()) << quoted.error().message;
  EXPECT_EQ(quoted->node, odd_node);
  auto by_guid = resolve_drain_part(f.t, "0x0000000000000300/4");
  ASSERT_TRUE(by_guid.ok()) << by_guid.error().message;
  EXPECT_EQ(by_guid->node, f.spine);
  EXPECT_EQ(by_guid->peer, f.leaf);
}

TEST(DrainTarget, ListStopsAtTheFirstBadOneAndRefusesNone) {
  Small f;
  const std::vector<std::string> ok{"spine", "h0[1]"};
  auto parts = resolve_drain_parts(f.t, ok);
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->size(), 2u);
  EXPECT_EQ((*parts)[1].kind, DrainPart::Kind::kCable);
  const std::vector<std::string> bad{"spine", "nope", "also-nope"};
  auto failed = resolve_drain_parts(f.t, bad);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message, "--drain 'nope': no node is named 'nope'");
  EXPECT_FALSE(resolve_drain_parts(f.t, std::vector<std::string>{}).ok());
}

// `smd plan --fail` and `--drain` take each part once: the same switch twice, or one cable by the same end or
// by both ends, is refused with both spellings named; different parts pass.
TEST(DrainTarget, APartNamedTwiceIsRefusedNamingBothSpellings) {
  Small f;
  const std::vector<std::pair<std::vector<std::string>, std::string>> twice{
      {{"spine", "0x300"}, "--fail '0x300': the same switch as 'spine'; name each part once"},
      {{"spine[4]", "spine[4]"}, "--fail 'spine[4]': the same cable as 'spine[4]'; name each part once"},
      {{"0x200/1", "spine[4]"}, "--fail 'spine[4]': the same cable as '0x200/1'; name each part once"},
      {{"h0[1]", "spine", "leaf 1[2]"}, "--fail 'leaf 1[2]': the same cable as 'h0[1]'; name each part once"},
  };
  for (const auto& [texts, message] : twice) {
    auto parts = resolve_drain_parts(f.t, texts, "--fail");
    ASSERT_TRUE(parts.ok()) << parts.error().message;
    const Status st = distinct_drain_parts(*parts, "--fail");
    ASSERT_FALSE(st.ok()) << message;
    EXPECT_EQ(st.error().code, ErrorCode::kInvalidInput);
    EXPECT_EQ(st.error().message, message);
  }
  // A switch and one of its own cables are two parts (the cable stays out when the switch comes back).
  const std::vector<std::string> distinct{"spine", "spine[4]", "h0[1]"};
  auto parts = resolve_drain_parts(f.t, distinct, "--fail");
  ASSERT_TRUE(parts.ok()) << parts.error().message;
  EXPECT_TRUE(distinct_drain_parts(*parts, "--fail").ok());
}

// `smctl drain` and `smctl what-if drain` read names with one parser (resolve_drain_request): the repeats
// plan refuses count once, at their first place; the what-if refused a cable by both ends that drain took.
TEST(DrainTarget, TheDaemonsCommandsCountARepeatedPartOnce) {
  Small f;
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases{
      {{"spine", "0x300"}, {"spine"}},
      {{"0x200/1", "spine[4]"}, {"0x200/1"}},
      {{"h0[1]", "spine", "leaf 1[2]", "spine[4]"}, {"h0[1]", "spine", "spine[4]"}},
  };
  for (const auto& [texts, kept] : cases) {
    auto parts = resolve_drain_request(f.t, texts, "smctl what-if drain");
    ASSERT_TRUE(parts.ok()) << parts.error().message;
    std::vector<std::string> got;
    for (const DrainPart& p : *parts) got.push_back(p.text);
    EXPECT_EQ(got, kept);
  }
  const std::vector<std::string> bad{"spine", "nope"};
  auto failed = resolve_drain_request(f.t, bad, "smctl what-if drain");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message, "smctl what-if drain 'nope': no node is named 'nope'");
}

}  // namespace
}  // namespace smd::drain_target_test
