// GmpManagerThread: the thread runs the loop under its own name, answers handed in by submit come back
// whole from take (and no more than the inbox holds), take returns by its deadline, a post wakes a waiting
// loop, and stop ends a loop that waits, any number of times, with start allowed again after it.
#include "mad/transport/gmp_thread.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <array>
#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace smd::mad::gmp_thread_test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::array<std::uint8_t, kMadSize> mad_with(std::uint8_t first, std::uint8_t last) {
  std::array<std::uint8_t, kMadSize> m{};
  m[0] = first;
  m[kMadSize - 1] = last;
  return m;
}

TEST(GmpManagerThread, RunsTheLoopUnderItsNameUntilStopped) {
  GmpManagerThread worker(4);
  std::string name;
  std::atomic<bool> named{false};
  worker.start("smd-gmp-test", [&] {
    char buf[16] = {};
    pthread_getname_np(pthread_self(), buf, sizeof buf);
    name = buf;
    named = true;
    std::unique_lock lock(worker.mutex());
    worker.wake().wait(lock, [&] { return worker.stopping(); });
  });
  EXPECT_TRUE(worker.running());
  while (!named) std::this_thread::sleep_for(1ms);
  worker.stop();  // the loop waits on wake(): stop must reach it
  EXPECT_FALSE(worker.running());
  EXPECT_EQ(name, "smd-gmp-test");
  worker.stop();  // twice: nothing to do
  EXPECT_FALSE(worker.running());
}

TEST(GmpManagerThread, StartsAgainAfterAStop) {
  GmpManagerThread worker(4);
  std::atomic<int> runs{0};
  auto loop = [&] {
    ++runs;
    std::unique_lock lock(worker.mutex());
    worker.wake().wait(lock, [&] { return worker.stopping(); });
  };
  worker.start("smd-gmp-test", loop);
  worker.start("smd-gmp-test", loop);  // already running: ignored
  worker.stop();
  EXPECT_EQ(runs, 1);
  worker.start("smd-gmp-test", loop);  // the stop flag is cleared: the loop waits again until stopped
  std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(worker.running());
  worker.stop();
  EXPECT_EQ(runs, 2);
}

TEST(GmpManagerThread, TakeReturnsWhatWasSubmittedUpToTheInboxLimit) {
  GmpManagerThread worker(2);
  worker.submit(mad_with(1, 0xA1));
  worker.submit(mad_with(2, 0xA2));
  worker.submit(mad_with(3, 0xA3));  // the inbox holds 2: dropped
  std::vector<GmpInbox::Mad> got;
  worker.take(Clock::now() + 1s, got);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], mad_with(1, 0xA1));
  EXPECT_EQ(got[1], mad_with(2, 0xA2));
  worker.take(Clock::now(), got);  // taken answers are gone
  EXPECT_TRUE(got.empty());
}

TEST(GmpManagerThread, TakeReturnsByItsDeadlineWithNothingQueued) {
  GmpManagerThread worker(2);
  std::vector<GmpInbox::Mad> got;
  const auto t0 = Clock::now();
  worker.take(t0 + 30ms, got);
  const auto waited = Clock::now() - t0;
  EXPECT_TRUE(got.empty());
  EXPECT_GE(waited, 30ms);
  EXPECT_LT(waited, 2s);
}

TEST(GmpManagerThread, AnAnswerFromAnotherThreadEndsTake) {
  GmpManagerThread worker(2);
  std::thread receive([&] {
    std::this_thread::sleep_for(20ms);
    worker.submit(mad_with(7, 0x77));
  });
  std::vector<GmpInbox::Mad> got;
  const auto t0 = Clock::now();
  worker.take(t0 + 10s, got);
  receive.join();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], mad_with(7, 0x77));
  EXPECT_LT(Clock::now() - t0, 5s) << "take returned on the answer, not at its deadline";
}

TEST(GmpManagerThread, APostWakesTheLoopWithItsChangeVisible) {
  GmpManagerThread worker(2);
  bool requested = false;  // guarded by worker.mutex()
  std::atomic<int> seen{0};
  worker.start("smd-gmp-test", [&] {
    std::unique_lock lock(worker.mutex());
    while (!worker.stopping()) {
      worker.wake().wait(lock, [&] { return worker.stopping() || requested; });
      if (requested) {
        requested = false;
        ++seen;
      }
    }
  });
  worker.post([&] { requested = true; });
  const auto until = Clock::now() + 5s;
  while (seen == 0 && Clock::now() < until) std::this_thread::sleep_for(1ms);
  worker.stop();
  EXPECT_EQ(seen, 1);
}

}  // namespace
}  // namespace smd::mad::gmp_thread_test
