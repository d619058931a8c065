// ElectionAgent (smd/sm/election_agent.h): the poll timer, failures in a row, awaiting a handover, trap
// TIDs and the nudge repeat rule, each alone. Timers run on a real io_context with short delays.
#include "smd/sm/election_agent.h"

#include <gtest/gtest.h>

#include <vector>

namespace smd::election_agent_test {
namespace {

using namespace std::chrono_literals;

struct Rig {
  boost::asio::io_context io;
  std::vector<DaemonEvent> posted;
  ElectionAgent agent{io, [this](DaemonEvent e) { posted.push_back(std::move(e)); }};

  /// Run the loop until `n` events were posted or `limit` passed.
  void run_until(std::size_t n, std::chrono::milliseconds limit = 2000ms) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    while (posted.size() < n && std::chrono::steady_clock::now() < give_up) io.run_one_for(20ms);
  }
};

TEST(ElectionAgent, APollDueIsOneEventOfTheLatestArming) {
  Rig r;
  r.agent.arm_poll(200ms);
  r.agent.arm_poll(10ms);  // overtakes the first
  r.run_until(2, 400ms);
  ASSERT_EQ(r.posted.size(), 1u);
  EXPECT_EQ(r.posted[0].kind, SmEvent::kPollDue);
  EXPECT_TRUE(r.agent.is_current_poll(r.posted[0].timer_gen));
}

TEST(ElectionAgent, ACancelledPollIsStaleAndAnAnswerToItDoesNotCount) {
  Rig r;
  r.agent.arm_poll(0ms);
  const std::uint64_t sent = r.agent.poll_generation();  // what an SMP sent now carries
  r.run_until(1);
  ASSERT_EQ(r.posted.size(), 1u);
  r.agent.cancel_poll();
  EXPECT_FALSE(r.agent.is_current_poll(r.posted[0].timer_gen));
  EXPECT_FALSE(r.agent.is_current_poll(sent));
}

TEST(ElectionAgent, FailuresCountInARowUntilAnAnswer) {
  Rig r;
  EXPECT_EQ(r.agent.poll_failed(), 1u);
  EXPECT_EQ(r.agent.poll_failed(), 2u);
  r.agent.poll_answered();
  EXPECT_EQ(r.agent.poll_failures(), 0u);
  EXPECT_EQ(r.agent.poll_failed(), 1u);
}

TEST(ElectionAgent, AwaitingAHandoverStartsTheFailuresAfresh) {
  Rig r;
  EXPECT_FALSE(r.agent.awaiting_handover());
  r.agent.poll_failed();
  r.agent.poll_failed();
  r.agent.start_awaiting();
  EXPECT_TRUE(r.agent.awaiting_handover());
  EXPECT_EQ(r.agent.poll_failures(), 0u);
  EXPECT_TRUE(r.agent.stop_awaiting());
  EXPECT_FALSE(r.agent.stop_awaiting());  // already stopped: nothing to log
  EXPECT_FALSE(r.agent.awaiting_handover());
}

TEST(ElectionAgent, TrapsGetTheirOwnTidsInOrder) {
  Rig r;
  EXPECT_EQ(r.agent.next_trap_tid(), 1u);
  EXPECT_EQ(r.agent.next_trap_tid(), 2u);
  EXPECT_EQ(r.agent.next_trap_tid(), 3u);
}

TEST(ElectionAgent, OnlyTheFirstNudgeOfEachMasterIsNews) {
  Rig r;
  EXPECT_TRUE(r.agent.note_nudge(0x10));
  EXPECT_FALSE(r.agent.note_nudge(0x10));  // the next poll's repeat
  EXPECT_FALSE(r.agent.note_nudge(0x10));
  EXPECT_TRUE(r.agent.note_nudge(0x20));  // another master
  EXPECT_TRUE(r.agent.note_nudge(0x10));  // back to the first: news again
}

TEST(ElectionAgent, TheGateVerdictAndTheWatchedSmAreKept) {
  Rig r;
  EXPECT_EQ(r.agent.gate(), ElectionAgent::GateVerdict::kConfigure);
  r.agent.set_gate(ElectionAgent::GateVerdict::kWait);
  EXPECT_EQ(r.agent.gate(), ElectionAgent::GateVerdict::kWait);
  r.agent.watched().guid = 0x30;
  r.agent.watched().lid = 4;
  EXPECT_EQ(r.agent.watched().guid, 0x30u);
  WatchedSm peer;
  peer.guid = 0x40;
  peer.info.state = mad::SmState::kMaster;
  EXPECT_TRUE(r.agent.known().replace({peer}));
  EXPECT_EQ(r.agent.known().other_masters(), 1u);
}

}  // namespace
}  // namespace smd::election_agent_test
