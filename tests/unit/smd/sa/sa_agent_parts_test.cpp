// The SA thread's parts on their own: SaInbox (a bounded queue, everything taken at once, stop) and
// GroupsFlusher (group changes handed to the SM at most every 5 ms after the first, at once on a clean stop;
// sa_agent.h). Expectations are the contracts in their headers, counted here by hand.
#include <gtest/gtest.h>

#include <array>
#include <thread>

#include "smd/sa/groups_flusher.h"
#include "smd/sa/sa_inbox.h"

namespace smd::sa::sa_agent_parts_test {
namespace {

using Clock = std::chrono::steady_clock;

TEST(SaInbox, HoldsAtMostItsDepthAndGivesEverythingAtOnce) {
  SaInbox inbox(2);
  std::array<std::uint8_t, 300> mad{};  // longer than a MAD: cut to 256 bytes
  mad[0] = 1;
  mad[255] = 7;
  mad::MadAddress from;
  from.lid = 9;
  EXPECT_TRUE(inbox.push(mad, from));
  EXPECT_TRUE(inbox.push(mad, from));
  EXPECT_FALSE(inbox.push(mad, from)) << "a third MAD does not fit a queue of 2";
  EXPECT_EQ(inbox.depth(), 2u);
  inbox.forward(mad::Notice{}, 5);
  inbox.published();
  SaInbox::Batch b;
  ASSERT_TRUE(inbox.wait_for_batch(Clock::now() + std::chrono::seconds(5), b));
  ASSERT_EQ(b.requests.size(), 2u);
  EXPECT_EQ(b.requests[0].mad[255], 7);
  EXPECT_EQ(b.requests[0].from.lid, 9);
  ASSERT_EQ(b.notices.size(), 1u);
  EXPECT_EQ(b.notices[0].issuer_lid, 5);
  EXPECT_TRUE(b.published);
  EXPECT_EQ(inbox.depth(), 0u) << "taken, so the queue has room again";
  EXPECT_TRUE(inbox.push(mad, from));
}

TEST(SaInbox, WaitEndsAtTheDeadlineWithNothingAndFalseOnStop) {
  SaInbox inbox(4);
  SaInbox::Batch b;
  const auto start = Clock::now();
  ASSERT_TRUE(inbox.wait_for_batch(start + std::chrono::milliseconds(20), b));
  EXPECT_GE(Clock::now() - start, std::chrono::milliseconds(20));
  EXPECT_TRUE(b.requests.empty());
  EXPECT_FALSE(b.published);
  std::thread stopper([&] { inbox.stop(); });
  EXPECT_FALSE(inbox.wait_for_batch(Clock::now() + std::chrono::seconds(30), b));
  stopper.join();
}

TEST(GroupsFlusher, HandsChangesOverAtMostEveryFiveMilliseconds) {
  GroupsFlusher flusher("");  // no groups file
  int handed = 0;
  flusher.set_sink([&](std::vector<McastGroupMembers>) { ++handed; });
  McastDb groups;
  EXPECT_EQ(flusher.next_due(), std::nullopt);
  const Clock::time_point t0 = Clock::now();
  flusher.changed(t0);
  flusher.changed(t0 + std::chrono::milliseconds(3));  // a storm: the first change sets the time
  ASSERT_TRUE(flusher.next_due().has_value());
  EXPECT_EQ(*flusher.next_due(), t0 + std::chrono::milliseconds(5));
  flusher.flush(groups, 0, t0 + std::chrono::milliseconds(4));
  EXPECT_EQ(handed, 0) << "not due yet";
  flusher.flush(groups, 0, t0 + std::chrono::milliseconds(5));
  EXPECT_EQ(handed, 1);
  EXPECT_EQ(flusher.next_due(), std::nullopt) << "nothing behind without a groups file";
  flusher.changed(t0 + std::chrono::milliseconds(6));
  flusher.flush(groups, 0, t0 + std::chrono::milliseconds(6), /*final=*/true);
  EXPECT_EQ(handed, 2) << "a clean stop hands over at once";
}

}  // namespace
}  // namespace smd::sa::sa_agent_parts_test
