// KnownSms (smd/sm/known_sms.h): the other SMs as the gate, polls and light sweeps leave them.
#include "smd/sm/known_sms.h"

#include <gtest/gtest.h>

namespace smd::known_sms_test {
namespace {

WatchedSm sm(Guid guid, mad::SmState state, std::uint8_t priority = 0) {
  WatchedSm w;
  w.guid = guid;
  w.lid = static_cast<Lid>(guid & 0xff);
  w.info.guid = guid;
  w.info.state = state;
  w.info.priority = priority;
  return w;
}

TEST(KnownSms, TheGateReplacesTheListAndCountsMasters) {
  KnownSms k;
  EXPECT_EQ(k.other_masters(), 0u);
  EXPECT_TRUE(k.replace({sm(0x10, mad::SmState::kStandby), sm(0x20, mad::SmState::kMaster)}));  // a master read
  ASSERT_EQ(k.list().size(), 2u);
  EXPECT_EQ(k.list()[0].guid, 0x10u);
  EXPECT_EQ(k.other_masters(), 1u);
  EXPECT_FALSE(k.replace({sm(0x10, mad::SmState::kStandby)}));
  EXPECT_EQ(k.other_masters(), 0u);
  EXPECT_EQ(find_sm(k.list(), 0x20), nullptr);
  ASSERT_NE(find_sm(k.list(), 0x10), nullptr);
}

TEST(KnownSms, APollOfANewSmAddsItAndIsAChange) {
  KnownSms k;
  const KnownSms::Polled p = k.note_polled(sm(0x30, mad::SmState::kDiscovering), sm(0x30, mad::SmState::kMaster).info);
  EXPECT_FALSE(p.was.has_value());
  EXPECT_TRUE(p.changed);
  EXPECT_EQ(p.now.info.state, mad::SmState::kMaster);
  EXPECT_EQ(k.other_masters(), 1u);
}

TEST(KnownSms, APollThatSeesNoMoveIsNoChange) {
  KnownSms k;
  k.replace({sm(0x30, mad::SmState::kMaster, 5)});
  KnownSms::Polled p = k.note_polled(k.list()[0], sm(0x30, mad::SmState::kMaster, 5).info);
  ASSERT_TRUE(p.was.has_value());
  EXPECT_FALSE(p.changed);
  p = k.note_polled(k.list()[0], sm(0x30, mad::SmState::kStandby, 5).info);
  EXPECT_TRUE(p.changed);
  EXPECT_EQ(p.was->info.state, mad::SmState::kMaster);
  EXPECT_EQ(k.other_masters(), 0u);
  EXPECT_EQ(k.list().size(), 1u);
}

TEST(KnownSms, ALightSweepDropsTheSilentOnesAndCountsTheAwaitedMaster) {
  KnownSms k;
  k.replace({sm(0x10, mad::SmState::kStandby), sm(0x20, mad::SmState::kStandby), sm(0x40, mad::SmState::kMaster)});
  EXPECT_FALSE(k.after_light_sweep({0x20}, 0, true));  // none read as MASTER this time
  ASSERT_EQ(k.list().size(), 2u);
  EXPECT_EQ(find_sm(k.list(), 0x20), nullptr);
  EXPECT_EQ(k.other_masters(), 1u);  // the lower master polled, not read
  EXPECT_TRUE(k.after_light_sweep({}, 1, false));
  EXPECT_EQ(k.other_masters(), 1u);
}

TEST(KnownSms, HeardSmsAreAskedUntilTheyFailToAnswer) {
  KnownSms k;
  EXPECT_FALSE(k.was_heard(0x50));
  k.heard(0x50);
  EXPECT_TRUE(k.was_heard(0x50));
  k.forget_heard(0x50);
  EXPECT_FALSE(k.was_heard(0x50));
}

}  // namespace
}  // namespace smd::known_sms_test
