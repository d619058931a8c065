// EventQueue (smd/sm/event_queue.h): order, events posted while applying, stopping and its exit code.
#include "smd/sm/event_queue.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace smd::event_queue_test {
namespace {

DaemonEvent event(SmEvent kind, std::string why = {}) {
  DaemonEvent e;
  e.kind = kind;
  e.why = std::move(why);
  return e;
}

TEST(EventQueue, EventsAreAppliedInArrivalOrderWithThoseTheyPost) {
  EventQueue q;
  q.post(event(SmEvent::kSweepRequested, "a"));
  q.post(event(SmEvent::kPollDue, "b"));
  std::vector<std::string> seen;
  q.apply([&](const DaemonEvent& e) {
    seen.push_back(e.why);
    if (e.why == "a") q.post(event(SmEvent::kLightSweepDue, "c"));  // after b: it arrived later
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(q.kinds().empty());
}

TEST(EventQueue, APostIsStampedWhenItCarriesNoTime) {
  EventQueue q;
  const auto before = std::chrono::steady_clock::now();
  q.post(event(SmEvent::kPollDue));
  DaemonEvent old = event(SmEvent::kPollDue);
  old.at = before - std::chrono::seconds(5);  // a trap's debounce counts from when its handler saw it
  q.post(old);
  std::vector<std::chrono::steady_clock::time_point> at;
  q.apply([&](const DaemonEvent& e) { at.push_back(e.at); });
  ASSERT_EQ(at.size(), 2u);
  EXPECT_GE(at[0], before);
  EXPECT_EQ(at[1], before - std::chrono::seconds(5));
}

TEST(EventQueue, KindsListWhatIsNotAppliedYet) {
  EventQueue q;
  q.post(event(SmEvent::kSweepRequested));
  q.post(event(SmEvent::kPollDue));
  EXPECT_EQ(q.kinds(), (std::vector<SmEvent>{SmEvent::kSweepRequested, SmEvent::kPollDue}));
}

TEST(EventQueue, AStopLeavesTheRestUnappliedAndTheFirstExitCodeStays) {
  EventQueue q;
  q.post(event(SmEvent::kSweepRequested, "a"));
  q.post(event(SmEvent::kSweepRequested, "b"));
  std::vector<std::string> seen;
  q.apply([&](const DaemonEvent& e) {
    seen.push_back(e.why);
    q.stop(1);
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"a"}));
  EXPECT_TRUE(q.stopping());
  q.stop(0);  // a SIGTERM after the dead port's stop: still the failure's status
  EXPECT_EQ(q.exit_code(), 1);
  q.apply([&](const DaemonEvent& e) { seen.push_back(e.why); });
  EXPECT_EQ(seen.size(), 1u);
}

TEST(EventQueue, AStopWithoutAFailureExitsCleanly) {
  EventQueue q;
  EXPECT_FALSE(q.stopping());
  q.stop();
  EXPECT_TRUE(q.stopping());
  EXPECT_EQ(q.exit_code(), 0);
}

}  // namespace
}  // namespace smd::event_queue_test
