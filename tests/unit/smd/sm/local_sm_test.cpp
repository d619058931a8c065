// LocalSm (smd/sm/local_sm.h): our SMInfo, our election self and our SA entry are made from one value.
#include "smd/sm/local_sm.h"

#include <gtest/gtest.h>

namespace smd::local_sm_test {
namespace {

LocalSm master_at_lid_7() {
  LocalSm sm;
  sm.state = mad::SmState::kMaster;
  sm.act_count = 41;
  sm.guid = 0x0002c90300000001ULL;
  sm.lid = 7;
  sm.port = 1;
  return sm;
}

TEST(LocalSm, OurSmInfoCarriesTheKeyAndPriorityAskedFor) {
  const LocalSm sm = master_at_lid_7();
  const mad::SmInfo info = sm.sminfo(0xfeedULL, 14);
  EXPECT_EQ(info.guid, 0x0002c90300000001ULL);
  EXPECT_EQ(info.sm_key, 0xfeedULL);
  EXPECT_EQ(info.act_count, 41u);
  EXPECT_EQ(info.priority, 14);
  EXPECT_EQ(info.state, mad::SmState::kMaster);
  EXPECT_EQ(sm.sminfo(0, 14).sm_key, 0u);  // a Get answered without proof of the key shows none
}

TEST(LocalSm, TheElectionComparesTheSameSelf) {
  LocalSm sm = master_at_lid_7();
  sm.state = mad::SmState::kStandby;
  const SmSelf self = sm.self(3, 0x99);
  EXPECT_EQ(self.state, mad::SmState::kStandby);
  EXPECT_EQ(self.priority, 3u);
  EXPECT_EQ(self.guid, sm.guid);
  EXPECT_EQ(self.sm_key, 0x99u);
  EXPECT_FALSE(sm.master());
}

TEST(LocalSm, TheSaListsUsAndOthersAlike) {
  const LocalSm sm = master_at_lid_7();
  const sa::SmEntry ours = sm.sa_entry(0x1234, 9);
  EXPECT_EQ(ours.lid, 7);
  EXPECT_EQ(ours.guid, sm.guid);
  EXPECT_EQ(ours.sm_key, 0x1234u);
  EXPECT_EQ(ours.act_count, 41u);
  EXPECT_EQ(ours.priority, 9);
  EXPECT_EQ(ours.state, 3);  // SMInfo:SMState MASTER (IBA 14.2.5.13)

  mad::SmInfo other;
  other.guid = 0x20;
  other.sm_key = 0x1234;
  other.act_count = 5;
  other.priority = 2;
  other.state = mad::SmState::kStandby;
  const sa::SmEntry theirs = sa_entry_of(12, 0x20, other);
  EXPECT_EQ(theirs.lid, 12);
  EXPECT_EQ(theirs.guid, 0x20u);
  EXPECT_EQ(theirs.act_count, 5u);
  EXPECT_EQ(theirs.priority, 2);
  EXPECT_EQ(theirs.state, 2);  // STANDBY
}

}  // namespace
}  // namespace smd::local_sm_test
