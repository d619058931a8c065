// LogBudget: a sample of what requesters cause reaches the log, with a count of what was held back.
#include <gtest/gtest.h>

#include "smd/sa/log_budget.h"

namespace smd::sa::sa_log_budget_test {
namespace {

using std::chrono::milliseconds;

TEST(LogBudget, AllowsItsLinesPerWindowThenCountsTheRestIntoTheNextLine) {
  LogBudget budget(3, milliseconds(1000));
  const LogBudget::Clock::time_point t0{};
  std::uint64_t held = 99;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(budget.allow(t0 + milliseconds(10 * i), held)) << i;
    EXPECT_EQ(held, 0u);
  }
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(budget.allow(t0 + milliseconds(500 + i), held)) << i;
  // A new window: the first line says how many the last one held back, the next says nothing more.
  ASSERT_TRUE(budget.allow(t0 + milliseconds(1000), held));
  EXPECT_EQ(held, 5u);
  ASSERT_TRUE(budget.allow(t0 + milliseconds(1001), held));
  EXPECT_EQ(held, 0u);
}

TEST(LogBudget, AFloodAtMadRateKeepsTheLogToItsBudget) {
  // 9,000 refused requests in 9 s (a fuzzing host): 20 lines per 10 s means 20 lines, not 9,000.
  LogBudget budget(20, std::chrono::seconds(10));
  const LogBudget::Clock::time_point t0{};
  std::uint64_t held = 0;
  unsigned lines = 0;
  for (int i = 0; i < 9000; ++i) lines += budget.allow(t0 + milliseconds(i), held) ? 1 : 0;
  EXPECT_EQ(lines, 20u);
  ASSERT_TRUE(budget.allow(t0 + std::chrono::seconds(10), held));
  EXPECT_EQ(held, 9000u - 20u);
}

}  // namespace
}  // namespace smd::sa::sa_log_budget_test
