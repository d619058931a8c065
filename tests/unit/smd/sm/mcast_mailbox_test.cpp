// McastMailbox alone: the newest deposit wins, a take sees it once, the view counts members by JoinState
// bit and marks trees programmed only when nothing is pending, and one debounce firing per burst.
#include "smd/sm/mcast_mailbox.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <thread>

namespace smd::mcast_mailbox_test {
namespace {

sa::McastGroupMembers group(Lid mlid, std::uint8_t mgid_last, std::vector<std::pair<Guid, std::uint8_t>> members) {
  sa::McastGroupMembers g;
  g.mlid = mlid;
  g.mgid[0] = 0xFF;
  g.mgid[15] = mgid_last;
  g.members = std::move(members);
  return g;
}

struct Box {
  boost::asio::io_context io;
  std::vector<DaemonEvent> posted;
  McastMailbox box{io, [this](DaemonEvent e) { posted.push_back(std::move(e)); }};
};

TEST(McastMailbox, TheNewestDepositIsTakenOnce) {
  Box b;
  EXPECT_FALSE(b.box.take().has_value());
  b.box.deposit({group(0xC001, 1, {{0x10, 1}})});
  b.box.deposit({group(0xC002, 2, {{0x20, 1}, {0x30, 1}})});
  const auto taken = b.box.take();
  ASSERT_TRUE(taken.has_value());
  ASSERT_EQ(taken->size(), 1u);
  EXPECT_EQ((*taken)[0].mlid, 0xC002);
  EXPECT_EQ((*taken)[0].port_guids, (std::vector<Guid>{0x20, 0x30}));
  EXPECT_FALSE(b.box.take().has_value());
}

TEST(McastMailbox, GroupsSharingAnMlidBecomeOneTreeWithoutJoinStateZero) {
  Box b;
  // Two consolidated SNM groups on MLID 0xC004; 0x50 left (JoinState 0) and is on no tree.
  b.box.deposit({group(0xC004, 1, {{0x30, 1}, {0x50, 0}}), group(0xC004, 2, {{0x10, 2}, {0x30, 1}})});
  const auto taken = b.box.take();
  ASSERT_TRUE(taken.has_value());
  ASSERT_EQ(taken->size(), 1u);
  EXPECT_EQ((*taken)[0].port_guids, (std::vector<Guid>{0x10, 0x30}));
}

TEST(McastMailbox, ViewCountsJoinStateBitsAndPendingTrees) {
  Box b;
  // 0x1 full, 0x2 non-member, 0x4 send-only non-member, 0x8 send-only full, 0x3 both full and non-member.
  b.box.deposit({group(0xC001, 1, {{0x10, 0x1}, {0x20, 0x2}, {0x30, 0x4}, {0x40, 0x8}, {0x50, 0x3}, {0x60, 0}}),
                 group(0xC002, 2, {{0x10, 0x1}})});
  McastTables trees;
  trees.trees[0xC001].root = 0xAA;
  trees.trees[0xC001].switches = {{0xAA, {}}, {0xBB, {}}};
  auto v = b.box.view(&trees, false);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].members, 5u);
  EXPECT_EQ(v[0].full, 2u);
  EXPECT_EQ(v[0].non_member, 2u);
  EXPECT_EQ(v[0].send_only, 2u);
  EXPECT_EQ(v[0].root, 0xAAu);
  EXPECT_EQ(v[0].tree_switches, 2u);
  EXPECT_FALSE(v[0].programmed);  // deposited, not yet taken
  EXPECT_EQ(v[1].root, 0u);       // no tree
  (void)b.box.take();
  EXPECT_TRUE(b.box.view(&trees, false)[0].programmed);
  EXPECT_FALSE(b.box.view(&trees, true)[0].programmed);  // the runner has a rebuild pending
  EXPECT_EQ(b.box.view(nullptr, false)[0].root, 0u);
}

TEST(McastMailbox, OneFiringPerBurst) {
  Box b;
  b.box.schedule_pass();
  b.box.schedule_pass();  // the same burst: no re-arming
  b.io.run_for(std::chrono::milliseconds(50));
  ASSERT_EQ(b.posted.size(), 1u);
  EXPECT_EQ(b.posted[0].kind, SmEvent::kMcastDue);
  EXPECT_FALSE(b.box.pass_due(b.posted[0].timer_gen + 1));  // not this arming's
  EXPECT_TRUE(b.box.pass_due(b.posted[0].timer_gen));
  b.box.schedule_pass();  // after the pass, the next change arms anew
  b.io.restart();
  b.io.run_for(std::chrono::milliseconds(50));
  ASSERT_EQ(b.posted.size(), 2u);
  EXPECT_NE(b.posted[1].timer_gen, b.posted[0].timer_gen);
}

}  // namespace
}  // namespace smd::mcast_mailbox_test
