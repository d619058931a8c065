// The election rules of IBA 14.4.1 (smd/sm/sm_election.h), case by case from the spec's tables.
#include "smd/sm/sm_election.h"

#include <gtest/gtest.h>

namespace smd {
namespace {

using mad::SmState;

mad::SmInfo peer(SmState state, unsigned prio, Guid guid, std::uint64_t key = 0) {
  mad::SmInfo i;
  i.state = state;
  i.priority = static_cast<std::uint8_t>(prio);
  i.guid = guid;
  i.sm_key = key;
  return i;
}

TEST(SmElection, PriorityThenLowerGuid) {
  EXPECT_TRUE(sm_outranks(5, 0x200, 4, 0x100));
  EXPECT_FALSE(sm_outranks(4, 0x100, 5, 0x200));
  EXPECT_TRUE(sm_outranks(7, 0x100, 7, 0x200));  // tie: the lower GUID wins
  EXPECT_FALSE(sm_outranks(7, 0x200, 7, 0x100));
  EXPECT_FALSE(sm_outranks(7, 0x100, 7, 0x100));  // nobody outranks itself
}

TEST(SmElection, KeyDisclosedOnlyToWhoKnowsIt) {
  EXPECT_EQ(sm_key_in_response(0xABCD, 0xABCD), 0xABCDu);
  EXPECT_EQ(sm_key_in_response(0, 0xABCD), 0u);
  EXPECT_EQ(sm_key_in_response(0x1234, 0xABCD), 0u);
  EXPECT_EQ(sm_key_in_response(0, 0), 0u);
}

TEST(SmElection, DiscoveringFollowsAnyMaster) {
  const SmSelf self{SmState::kDiscovering, 10, 0x100, 0};
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 1, 0x200)), PeerVerdict::kFollow);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200)), PeerVerdict::kFollow);
}

TEST(SmElection, MasterYieldsOnlyToAHigherMaster) {
  const SmSelf self{SmState::kMaster, 10, 0x100, 0};
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 11, 0x200)), PeerVerdict::kFollow);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 9, 0x050)), PeerVerdict::kIgnore);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 10, 0x200)), PeerVerdict::kIgnore);  // we have the lower GUID
}

TEST(SmElection, MasterHandsOverToAHigherStandby) {
  const SmSelf self{SmState::kMaster, 5, 0x100, 0x77};
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 6, 0x200, 0x77)), PeerVerdict::kHandOver);
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 5, 0x050, 0x77)), PeerVerdict::kHandOver);
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 4, 0x050, 0x77)), PeerVerdict::kIgnore);
  // A standby never hands over: only the master owns the subnet.
  EXPECT_EQ(judge_peer({SmState::kStandby, 5, 0x100, 0x77}, peer(SmState::kStandby, 9, 0x200, 0x77)),
            PeerVerdict::kIgnore);
}

TEST(SmElection, DiscoveringDefersToAHigherDiscoveringSm) {
  const SmSelf self{SmState::kDiscovering, 5, 0x100, 0};
  EXPECT_EQ(judge_peer(self, peer(SmState::kDiscovering, 6, 0x200)), PeerVerdict::kFollow);
  EXPECT_EQ(judge_peer(self, peer(SmState::kDiscovering, 4, 0x200)), PeerVerdict::kIgnore);
  EXPECT_EQ(judge_peer(self, peer(SmState::kNotActive, 15, 0x200)), PeerVerdict::kIgnore);
}

TEST(SmElection, ForeignKeyIsDistrustedWhateverItClaims) {
  const SmSelf self{SmState::kDiscovering, 0, 0x100, 0x1111};
  // It did not return our key: either it has another key or it does not trust us.
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200, 0)), PeerVerdict::kDistrust);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200, 0x2222)), PeerVerdict::kDistrust);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200, 0x1111)), PeerVerdict::kFollow);
  // A keyless SM meets a peer that returned a key it was not asked for: not the same subnet owner.
  EXPECT_EQ(judge_peer({SmState::kMaster, 0, 0x100, 0}, peer(SmState::kStandby, 15, 0x200, 0x2222)),
            PeerVerdict::kDistrust);
}

TEST(SmElection, SetNeedsTheKeyAndAnExistingTransition) {
  using namespace mad::sminfo_mod;
  EXPECT_TRUE(sminfo_set_obeyed(SmState::kStandby, kHandover, 0x99, 0x99));
  EXPECT_FALSE(sminfo_set_obeyed(SmState::kStandby, kHandover, 0x98, 0x99));  // wrong SM_Key
  EXPECT_FALSE(sminfo_set_obeyed(SmState::kStandby, kHandover, 0, 0x99));     // no key at all
  EXPECT_FALSE(sminfo_set_obeyed(SmState::kMaster, kHandover, 0x99, 0x99));   // only a standby takes over
  EXPECT_TRUE(sminfo_set_obeyed(SmState::kMaster, kDisable, 0, 0));
  EXPECT_FALSE(sminfo_set_obeyed(SmState::kMaster, kDisable, 0x5, 0));
  EXPECT_FALSE(sminfo_set_obeyed(SmState::kNotActive, kStandby, 0, 0));
  EXPECT_TRUE(sminfo_set_obeyed(SmState::kNotActive, kDiscover, 0, 0));
  EXPECT_FALSE(sminfo_set_obeyed(SmState::kMaster, kAcknowledge, 0, 0));
  EXPECT_FALSE(sminfo_set_obeyed(SmState::kMaster, 9, 0, 0));
}

}  // namespace
}  // namespace smd
