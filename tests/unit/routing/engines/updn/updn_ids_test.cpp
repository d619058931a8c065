// routing.updn.ids (OpenSM's ids_guid_file): ids replace switch GUIDs where updn orders switches of equal
// rank, lower id = higher switch, so they decide which way an equal-rank cable points and with it which
// routes are legal. Expected ports worked out by hand in the comments.
#include <gtest/gtest.h>

#include "routing/engines/updn/updn_factory.h"
#include "routing/engines/updn/updn_options.h"
#include "routing/verify/verify.h"
#include "tests/unit/routing/hand_node.h"

namespace smd::updn_ids_test {
namespace {

/// A ring of five switches s0..s4 (GUID 0x200+i; port 1 -> s(i+1), port 2 -> s(i-1), port 3 -> host hi
/// with LID i+1); switch LIDs 6..10. Rooted at s0: ranks s1 = s4 = 1, s2 = s3 = 2, so the cable s2-s3
/// joins two switches of equal rank.
struct Ring {
  Topology t;
  NodeIndex s[5], h[5];
  LidMap lids;
  Ring() {
    for (int i = 0; i < 5; ++i) {
      Node n = test::make_node(NodeType::kSwitch, 3, 0x200 + i);
      n.ports[0].guid = 0x200 + i;
      s[i] = t.add_node(std::move(n)).value();
      Node ca = test::make_node(NodeType::kCa, 1, 0x100 + i);
      ca.ports[1].guid = 0x10100 + i;
      h[i] = t.add_node(std::move(ca)).value();
    }
    for (int i = 0; i < 5; ++i) {
      EXPECT_TRUE(t.connect(s[i], 1, s[(i + 1) % 5], 2).ok());
      EXPECT_TRUE(t.connect(s[i], 3, h[i], 1).ok());
      EXPECT_TRUE(lids.assign(h[i], 1, static_cast<Lid>(i + 1), 0).ok());
      EXPECT_TRUE(lids.assign(s[i], 0, static_cast<Lid>(6 + i), 0).ok());
    }
  }
};

RoutingTables route(const Ring& r, std::vector<GuidId> ids) {
  RoutingOptions options;
  UpdnOptions updn({0x200});
  updn.ids = std::move(ids);
  options.engines.set(updn);
  auto out = updn_factory().create(options)->compute(r.t, r.lids);
  EXPECT_TRUE(out.ok()) << (out.ok() ? "" : out.error().message);
  return out.ok() ? std::move(out).value() : RoutingTables{};
}

TEST(UpdnIds, GuidsDecideTheEqualRankCableByDefault) {
  const Ring r;
  const RoutingTables t = route(r, {});
  // s2 (GUID 0x202) is above s3 (0x203): s2 -> s3 goes down. s1 reaches h3 down s1 -> s2 -> s3 (port 1);
  // s4 -> s3 -> s2 would turn up after down, so s4 reaches h2 through the root (port 1 = s0).
  EXPECT_EQ(t.lft[r.s[1]].get(4), 1);
  EXPECT_EQ(t.lft[r.s[4]].get(3), 1);
  EXPECT_TRUE(t.notes.empty());
  EXPECT_TRUE(verify_tables(r.t, r.lids, t, /*require_deadlock_free=*/true).ok());
}

TEST(UpdnIds, LowerIdMakesTheSwitchTheHigherOne) {
  const Ring r;
  // ids: s2 = 9, s3 = 1, so s3 is above s2 and the cable points the other way: s1 -> s2 -> s3 would turn
  // up, so s1 reaches h3 through the root (port 2 = s0); s4 reaches h2 down s4 -> s3 -> s2 (port 2).
  const RoutingTables t = route(r, {{0x202, 9}, {0x203, 1}});
  EXPECT_EQ(t.lft[r.s[1]].get(4), 2);
  EXPECT_EQ(t.lft[r.s[4]].get(3), 2);
  EXPECT_TRUE(verify_tables(r.t, r.lids, t, /*require_deadlock_free=*/true).ok());
}

TEST(UpdnIds, GuidsThatNameNoSwitchAreNotedAndSkipped) {
  const Ring r;
  // 0x100 is a CA, 0x999 is nothing: both skipped; s3 alone gets id 0, below every GUID, so it is above s2.
  const RoutingTables t = route(r, {{0x100, 0}, {0x999, 0}, {0x203, 0}});
  EXPECT_EQ(t.lft[r.s[4]].get(3), 2);
  ASSERT_EQ(t.notes.size(), 1u);
  EXPECT_EQ(t.notes[0],
            "routing.updn.ids: 2 GUIDs name no switch of the fabric, skipped: 0x0000000000000100 0x0000000000000999");
}

}  // namespace
}  // namespace smd::updn_ids_test
