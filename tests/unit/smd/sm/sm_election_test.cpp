// The election rules of IBA 14.4.1 (smd/sm/sm_election.h), case by case, with the OpenSM 3.3.23 behaviour
// they have to meet (osm_state_mgr.c, osm_sminfo_rcv.c).
#include "smd/sm/sm_election.h"

#include <gtest/gtest.h>

#include <vector>

namespace smd::sm_election_test {
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

TEST(SmElection, DiscoveringFollowsAnyMaster) {
  const SmSelf self{SmState::kDiscovering, 10, 0x100, 0};
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 1, 0x200)), PeerVerdict::kFollow);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200)), PeerVerdict::kFollow);
}

TEST(SmElection, DiscoveringDefersToAHigherSmThatLooksOrStandsBy) {
  const SmSelf self{SmState::kDiscovering, 5, 0x100, 0};
  EXPECT_EQ(judge_peer(self, peer(SmState::kDiscovering, 6, 0x200)), PeerVerdict::kFollow);
  EXPECT_EQ(judge_peer(self, peer(SmState::kDiscovering, 4, 0x200)), PeerVerdict::kIgnore);
  // OpenSM too: a higher STANDBY found while discovering is "master_sm_found".
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 6, 0x200)), PeerVerdict::kFollow);
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 5, 0x200)), PeerVerdict::kIgnore);
  EXPECT_EQ(judge_peer(self, peer(SmState::kNotActive, 15, 0x200)), PeerVerdict::kIgnore);
}

// Issue 13 changed this: a MASTER that finds another MASTER no longer ignores one below it (both stayed
// master for as long as they ran) and no longer stands by under one above it without a HANDOVER.
TEST(SmElection, TwoMastersTheLowerYieldsTheHigherAwaits) {
  const SmSelf self{SmState::kMaster, 10, 0x100, 0};
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 11, 0x200)), PeerVerdict::kYield);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 10, 0x050)), PeerVerdict::kYield);  // lower GUID
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 9, 0x050)), PeerVerdict::kAwaitHandover);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 10, 0x200)), PeerVerdict::kAwaitHandover);
}

TEST(SmElection, MasterHandsOverToAHigherStandby) {
  const SmSelf self{SmState::kMaster, 5, 0x100, 0x77};
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 6, 0x200, 0x77)), PeerVerdict::kHandOver);
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 5, 0x050, 0x77)), PeerVerdict::kHandOver);
  EXPECT_EQ(judge_peer(self, peer(SmState::kStandby, 4, 0x050, 0x77)), PeerVerdict::kIgnore);
  // A discovering SM that outranks us finds us as master, stands by, and is handed over to then.
  EXPECT_EQ(judge_peer(self, peer(SmState::kDiscovering, 15, 0x200, 0x77)), PeerVerdict::kIgnore);
}

TEST(SmElection, ForeignKeyIsDistrustedWhateverItClaims) {
  const SmSelf self{SmState::kDiscovering, 0, 0x100, 0x1111};
  // A key that is not ours (0 included: a peer whose M_Key protection withheld it cannot be checked).
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200, 0)), PeerVerdict::kDistrust);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200, 0x2222)), PeerVerdict::kDistrust);
  EXPECT_EQ(judge_peer(self, peer(SmState::kMaster, 15, 0x200, 0x1111)), PeerVerdict::kFollow);
  // A keyless SM trusts keyless peers only.
  EXPECT_EQ(judge_peer({SmState::kMaster, 0, 0x100, 0}, peer(SmState::kStandby, 15, 0x200, 0x2222)),
            PeerVerdict::kDistrust);
  EXPECT_EQ(judge_peer({SmState::kMaster, 0, 0x100, 0}, peer(SmState::kStandby, 15, 0x200, 0)), PeerVerdict::kHandOver);
}

struct ElectionCase {
  const char* name;
  SmSelf self;
  std::vector<mad::SmInfo> peers;
  ElectionDecision want;
};

class Election : public testing::TestWithParam<ElectionCase> {};

TEST_P(Election, Decides) {
  const ElectionCase& c = GetParam();
  EXPECT_EQ(decide_election(c.self, c.peers), c.want) << c.name;
}

constexpr std::uint64_t kKey = 1;
const SmSelf kDiscovering10{SmState::kDiscovering, 10, 0x100, kKey};
const SmSelf kMaster10{SmState::kMaster, 10, 0x100, kKey};

INSTANTIATE_TEST_SUITE_P(
    Cases, Election,
    testing::Values(ElectionCase{"alone", kMaster10, {}, {ElectionOutcome::kConfigure, 0}},
                    ElectionCase{"only lower standbys", kMaster10, {peer(SmState::kStandby, 5, 0x200, kKey)}, {}},
                    ElectionCase{"discovering: the master, not the higher discovering SM",
                                 kDiscovering10,
                                 {peer(SmState::kDiscovering, 12, 0x200, kKey), peer(SmState::kMaster, 3, 0x300, kKey)},
                                 {ElectionOutcome::kFollow, 1}},
                    ElectionCase{"discovering: two masters, the higher one",
                                 kDiscovering10,
                                 {peer(SmState::kMaster, 3, 0x300, kKey), peer(SmState::kMaster, 7, 0x400, kKey)},
                                 {ElectionOutcome::kFollow, 1}},
                    ElectionCase{"discovering: a foreign master does not count",
                                 kDiscovering10,
                                 {peer(SmState::kMaster, 3, 0x300, 0x99)},
                                 {ElectionOutcome::kConfigure, 0}},
                    ElectionCase{"master: the higher of two standbys",
                                 kMaster10,
                                 {peer(SmState::kStandby, 11, 0x300, kKey), peer(SmState::kStandby, 12, 0x400, kKey)},
                                 {ElectionOutcome::kHandOver, 1}},
                    ElectionCase{"master: a higher master over a higher standby",
                                 kMaster10,
                                 {peer(SmState::kStandby, 11, 0x300, kKey), peer(SmState::kMaster, 12, 0x400, kKey)},
                                 {ElectionOutcome::kYield, 1}},
                    ElectionCase{"master: the highest SM decides, a standby above a master",
                                 kMaster10,
                                 {peer(SmState::kMaster, 11, 0x300, kKey), peer(SmState::kStandby, 13, 0x400, kKey)},
                                 {ElectionOutcome::kHandOver, 1}},
                    ElectionCase{"master: a lower master is awaited",
                                 kMaster10,
                                 {peer(SmState::kStandby, 2, 0x300, kKey), peer(SmState::kMaster, 5, 0x400, kKey)},
                                 {ElectionOutcome::kAwaitHandover, 1}},
                    ElectionCase{"master: a higher standby first, then the lower master hands over to it",
                                 kMaster10,
                                 {peer(SmState::kMaster, 5, 0x300, kKey), peer(SmState::kStandby, 11, 0x400, kKey)},
                                 {ElectionOutcome::kHandOver, 1}},
                    ElectionCase{"master: of two lower masters, the higher",
                                 kMaster10,
                                 {peer(SmState::kMaster, 5, 0x300, kKey), peer(SmState::kMaster, 9, 0x400, kKey)},
                                 {ElectionOutcome::kAwaitHandover, 1}}));

TEST(SmElection, StandbyPollOfItsMaster) {
  const SmSelf self{SmState::kStandby, 5, 0x100, kKey};
  const Guid master = 0x200;
  EXPECT_EQ(judge_poll(self, master, std::nullopt), PollVerdict::kFailed);
  EXPECT_EQ(judge_poll(self, master, peer(SmState::kMaster, 9, master, kKey)), PollVerdict::kAlive);
  // We outrank the master we stand by under: nudge it (OpenSM's standby sends trap 144 here).
  EXPECT_EQ(judge_poll(self, master, peer(SmState::kMaster, 2, master, kKey)), PollVerdict::kAliveBelowUs);
  // Another key, another port answering, or an SM that keeps no subnet: a failed poll.
  EXPECT_EQ(judge_poll(self, master, peer(SmState::kMaster, 9, master, 0x5)), PollVerdict::kKeyMismatch);
  EXPECT_EQ(judge_poll(self, master, peer(SmState::kMaster, 9, 0x300, kKey)), PollVerdict::kFailed);
  EXPECT_EQ(judge_poll(self, master, peer(SmState::kDiscovering, 9, master, kKey)), PollVerdict::kFailed);
  EXPECT_EQ(judge_poll(self, master, peer(SmState::kStandby, 2, master, kKey)), PollVerdict::kFailed);
  // A standby that outranks us may be about to take over: still alive.
  EXPECT_EQ(judge_poll(self, master, peer(SmState::kStandby, 9, master, kKey)), PollVerdict::kAlive);
}

TEST(SmElection, MasterPollOfTheLowerMasterItAwaits) {
  const SmSelf self{SmState::kMaster, 10, 0x100, kKey};
  const Guid lower = 0x200;
  EXPECT_EQ(judge_poll(self, lower, std::nullopt), PollVerdict::kFailed);
  EXPECT_EQ(judge_poll(self, lower, peer(SmState::kMaster, 5, lower, kKey)), PollVerdict::kAliveBelowUs);
  EXPECT_EQ(judge_poll(self, lower, peer(SmState::kMaster, 12, lower, kKey)), PollVerdict::kAboveUs);
  EXPECT_EQ(judge_poll(self, lower, peer(SmState::kStandby, 5, lower, kKey)), PollVerdict::kNotMaster);
}

}  // namespace
}  // namespace smd::sm_election_test
