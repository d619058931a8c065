// SweepScheduler (smd/sm/sweep_scheduler.h): coalesced heavy-sweep requests behind one timer, the light
// timer, failures in a row and the repair clock. Timers run on a real io_context with short delays.
#include "smd/sm/sweep_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

namespace smd::sweep_scheduler_test {
namespace {

using namespace std::chrono_literals;
using Clock = SweepScheduler::Clock;

struct Rig {
  boost::asio::io_context io;
  std::vector<DaemonEvent> posted;
  SweepScheduler sched{io, [this](DaemonEvent e) { posted.push_back(std::move(e)); }};

  /// Run the loop until `n` events were posted or 2 s passed.
  void run_until(std::size_t n) {
    const auto give_up = Clock::now() + 2s;
    while (posted.size() < n && Clock::now() < give_up) io.run_one_for(50ms);
  }
};

TEST(SweepScheduler, RequestsBeforeTheTimerFiresAreOneSweep) {
  Rig r;
  const auto now = Clock::now();
  r.sched.request(now + 20ms, "trap 128", SweepScope::kChanged, 5);
  r.sched.request(now + 30ms, "trap 128", SweepScope::kChanged, 9);  // covered by the sooner arming
  r.run_until(1);
  r.io.run_for(60ms);  // nothing else fires
  ASSERT_EQ(r.posted.size(), 1u);
  EXPECT_EQ(r.posted[0].kind, SmEvent::kHeavySweepDue);
  EXPECT_TRUE(r.sched.take_due(r.posted[0].timer_gen));
  EXPECT_FALSE(r.sched.take_due(r.posted[0].timer_gen));  // taken once
  const SweepScheduler::Started s = r.sched.begin(Clock::now());
  EXPECT_EQ(s.number, 1u);
  EXPECT_EQ(r.sched.running(), 1u);
  EXPECT_EQ(s.order.reason, "trap 128");
  EXPECT_EQ(s.order.scope, SweepScope::kChanged);
  EXPECT_EQ(s.order.trap_lids, std::vector<Lid>({5, 9}));
  EXPECT_EQ(r.sched.end(false), 0u);
  EXPECT_EQ(r.sched.running(), 0u);
}

TEST(SweepScheduler, ALaterArmingIsBroughtForwardForASoonerRequest) {
  Rig r;
  r.sched.request(Clock::now() + 1h, "re-sweep", SweepScope::kFailed);
  r.sched.request(Clock::now() + 10ms, "trap 144");
  r.run_until(1);
  ASSERT_EQ(r.posted.size(), 1u);  // fired within the 2 s, not after an hour
  EXPECT_TRUE(r.sched.take_due(r.posted[0].timer_gen));
  EXPECT_EQ(r.sched.begin(Clock::now()).order.scope, SweepScope::kFull);
}

TEST(SweepScheduler, ARequestWhileDueJoinsTheQueuedSweep) {
  Rig r;
  r.sched.request(Clock::now(), "start-up");
  r.run_until(1);
  ASSERT_EQ(r.posted.size(), 1u);
  r.sched.request(Clock::now(), "smctl sweep");  // the event is queued: no second arming
  r.io.run_for(40ms);
  EXPECT_EQ(r.posted.size(), 1u);
  EXPECT_TRUE(r.sched.take_due(r.posted[0].timer_gen));
  EXPECT_EQ(r.sched.begin(Clock::now()).order.reason, "start-up");
}

TEST(SweepScheduler, CancelMakesAQueuedFiringStaleAndForgetsRequests) {
  Rig r;
  r.sched.request(Clock::now(), "trap 144");
  r.run_until(1);
  ASSERT_EQ(r.posted.size(), 1u);
  r.sched.cancel();
  EXPECT_FALSE(r.sched.take_due(r.posted[0].timer_gen));
  const SweepScheduler::Started s = r.sched.begin(Clock::now());
  EXPECT_EQ(s.order.reason, "requested");  // nothing pending was kept
  EXPECT_EQ(s.order.scope, SweepScope::kFailed);
}

TEST(SweepScheduler, SweepNumbersCountUpAndTheGateReasonIsPerSweep) {
  Rig r;
  EXPECT_EQ(r.sched.begin(Clock::now()).number, 1u);
  r.sched.set_gate_why("following 0x0002");
  EXPECT_EQ(r.sched.gate_why(), "following 0x0002");
  (void)r.sched.end(false);
  EXPECT_EQ(r.sched.begin(Clock::now()).number, 2u);
  EXPECT_EQ(r.sched.gate_why(), "");
}

TEST(SweepScheduler, DeadPortSweepsCountOnlyInARow) {
  Rig r;
  EXPECT_EQ(r.sched.end(true), 1u);
  EXPECT_EQ(r.sched.end(true), 2u);
  EXPECT_EQ(r.sched.end(false), 0u);
  EXPECT_EQ(r.sched.end(true), 1u);
}

TEST(SweepScheduler, FailuresInARowResetWhenTheSubnetComesUp) {
  Rig r;
  EXPECT_EQ(r.sched.count_result(false), 1u);
  EXPECT_EQ(r.sched.count_result(false), 2u);
  EXPECT_EQ(r.sched.count_result(true), 0u);
}

TEST(SweepScheduler, TheRepairClockRunsFromTheFirstChangeToTheSweepAfterIt) {
  Rig r;
  const Clock::time_point t0 = Clock::now();
  r.sched.change_seen(t0);
  r.sched.change_seen(t0 + 5ms);  // a second trap of the burst does not restart it
  (void)r.sched.begin(t0 + 20ms);
  EXPECT_FALSE(r.sched.repaired(t0 + 50ms, false).has_value());  // not up: still running
  const std::optional<double> ms = r.sched.repaired(t0 + 50ms, true);
  ASSERT_TRUE(ms.has_value());
  EXPECT_DOUBLE_EQ(*ms, 50.0);
  EXPECT_DOUBLE_EQ(r.sched.last_repair_ms(), 50.0);
  EXPECT_FALSE(r.sched.repaired(t0 + 60ms, true).has_value());  // stopped
}

TEST(SweepScheduler, AChangeSeenWhileTheSweepRanIsTheNextSweepsToRepair) {
  Rig r;
  const Clock::time_point t0 = Clock::now();
  (void)r.sched.begin(t0);
  r.sched.change_seen(t0 + 10ms);
  EXPECT_FALSE(r.sched.repaired(t0 + 20ms, true).has_value());
  (void)r.sched.begin(t0 + 30ms);
  const std::optional<double> ms = r.sched.repaired(t0 + 40ms, true);
  ASSERT_TRUE(ms.has_value());
  EXPECT_DOUBLE_EQ(*ms, 30.0);
  r.sched.restart_repair_clock(t0 + 50ms);
  (void)r.sched.begin(t0 + 50ms);
  EXPECT_DOUBLE_EQ(*r.sched.repaired(t0 + 51ms, true), 1.0);
}

TEST(SweepScheduler, TheLightTimerFiresOnceAndARearmingMakesItStale) {
  Rig r;
  r.sched.arm_light(10ms);
  r.run_until(1);
  ASSERT_EQ(r.posted.size(), 1u);
  EXPECT_EQ(r.posted[0].kind, SmEvent::kLightSweepDue);
  EXPECT_TRUE(r.sched.light_current(r.posted[0].timer_gen));
  r.sched.arm_light(1h);
  EXPECT_FALSE(r.sched.light_current(r.posted[0].timer_gen));
  r.sched.cancel_light();
}

}  // namespace
}  // namespace smd::sweep_scheduler_test
