// PortHealth (smd/perfmgr/port_health.h): thresholds (at = not crossed, one above = crossed), flaps inside
// and outside the window, quiet-period expiry and its restart, operator clear, policy reload.
#include "smd/perfmgr/port_health.h"

#include <gtest/gtest.h>

namespace smd::port_health_test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::size_t idx(PortCounter c) { return static_cast<std::size_t>(c); }
const PortKey kPort{0x100, 3};
const Clock::time_point t0{};

HealthThresholds symbol_errors_over(std::uint64_t max) {
  HealthThresholds t;
  t.max_per_interval[idx(PortCounter::kSymbolError)] = max;
  return t;
}

CounterArray with(PortCounter c, std::uint64_t v, CounterArray d = {}) {
  d[idx(c)] = v;
  return d;
}

TEST(PortHealth, DeltasReadOverSeveralIntervalsAreJudgedAtTheThresholdsRate) {
  // 10 per 2 s: 66 errors gathered over 22 s (the PerfMgr was off) are 6 per 2 s, not a crossing; 21 in
  // 4 s are (20 allowed); a delta read sooner than an interval is still held to the full threshold.
  HealthThresholds t = symbol_errors_over(10);
  t.interval_s = 2;
  PortHealth h(t);
  EXPECT_FALSE(h.record_errors(kPort, with(PortCounter::kSymbolError, 66), 22, t0));
  EXPECT_FALSE(h.record_errors(kPort, with(PortCounter::kSymbolError, 20), 4, t0 + 4s));
  EXPECT_FALSE(h.record_errors(kPort, with(PortCounter::kSymbolError, 10), 0.5, t0 + 5s));
  const auto m = h.record_errors(kPort, with(PortCounter::kSymbolError, 21), 4, t0 + 9s);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->reason, "SymbolErrorCounter +21 in 4 s (threshold 10 per 2 s)");
  const PortKey other{0x200, 1};
  const auto soon = h.record_errors(other, with(PortCounter::kSymbolError, 11), 0.5, t0 + 9s);
  ASSERT_TRUE(soon);
  EXPECT_EQ(soon->reason, "SymbolErrorCounter +11 in 0.5 s (threshold 10 per 2 s)");
}

TEST(PortHealth, ExactlyAtTheThresholdIsNotCrossedOneAboveIs) {
  PortHealth h(symbol_errors_over(10));
  EXPECT_FALSE(h.record_errors(kPort, with(PortCounter::kSymbolError, 10), 10, t0));
  EXPECT_TRUE(h.marked().empty());
  const auto m = h.record_errors(kPort, with(PortCounter::kSymbolError, 11), 10, t0 + 10s);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->key, kPort);
  EXPECT_EQ(m->reason, "SymbolErrorCounter +11 in 10 s (threshold 10)");
  ASSERT_EQ(h.marked().count(kPort), 1u);
  EXPECT_EQ(h.marked().at(kPort).since, t0 + 10s);
  EXPECT_EQ(h.marked().at(kPort).reason, m->reason);
  EXPECT_FALSE(h.record_errors(kPort, with(PortCounter::kSymbolError, 500), 10, t0 + 20s)) << "already marked";
}

TEST(PortHealth, ZeroThresholdIsIgnoredAndTheFirstCrossingInCounterOrderIsNamed) {
  HealthThresholds t;
  t.max_per_interval[idx(PortCounter::kPortRcvErrors)] = 5;
  t.max_per_interval[idx(PortCounter::kVL15Dropped)] = 1;
  PortHealth h(t);
  // SymbolErrorCounter has no threshold: any amount is fine.
  EXPECT_FALSE(h.record_errors(kPort, with(PortCounter::kSymbolError, 60000), 10, t0));
  CounterArray d = with(PortCounter::kVL15Dropped, 2, with(PortCounter::kPortRcvErrors, 6));
  const auto m = h.record_errors(kPort, d, 2.5, t0);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->reason, "PortRcvErrors +6 in 2.5 s (threshold 5)");
}

TEST(PortHealth, FlapsInsideTheWindowMarkOutsideDoNot) {
  HealthThresholds t;
  t.flap_count = 3;
  t.flap_window = 600s;
  PortHealth h(t);
  EXPECT_FALSE(h.record_flap(kPort, t0));
  EXPECT_FALSE(h.record_flap(kPort, t0 + 100s));
  // t0 is exactly 600 s old at t0+600s: out of the window, so only two flaps count.
  EXPECT_FALSE(h.record_flap(kPort, t0 + 600s));
  EXPECT_EQ(h.flaps(kPort, t0 + 600s), 2u);
  const auto m = h.record_flap(kPort, t0 + 650s);  // t0+100, +600, +650
  ASSERT_TRUE(m);
  EXPECT_EQ(m->reason, "3 link flaps in 600 s");
  EXPECT_EQ(h.marked().at(kPort).flaps, 3u);
  EXPECT_EQ(h.flaps(kPort, t0 + 1250s), 0u) << "all older than the window by then";
}

TEST(PortHealth, FlapCountZeroNeverMarks) {
  PortHealth h(HealthThresholds{});
  for (int i = 0; i < 20; ++i) EXPECT_FALSE(h.record_flap(kPort, t0 + std::chrono::seconds(i)));
  EXPECT_TRUE(h.marked().empty());
  EXPECT_EQ(h.flaps(kPort, t0 + 20s), 20u);
}

TEST(PortHealth, QuietPeriodExpiresAndErrorsOrFlapsRestartIt) {
  HealthThresholds t = symbol_errors_over(10);
  t.quiet_period = 300s;
  PortHealth h(t);
  ASSERT_TRUE(h.record_errors(kPort, with(PortCounter::kSymbolError, 50), 10, t0));
  EXPECT_TRUE(h.expire_quiet(t0 + 299s).empty());
  // One error (below the threshold, but > 0) restarts the quiet period.
  h.record_errors(kPort, with(PortCounter::kSymbolError, 1), 10, t0 + 200s);
  EXPECT_EQ(h.marked().at(kPort).last_bad, t0 + 200s);
  EXPECT_TRUE(h.expire_quiet(t0 + 300s).empty());
  // PortXmitWait is congestion, not an error: it does not restart it.
  h.record_errors(kPort, with(PortCounter::kPortXmitWait, 1000), 10, t0 + 400s);
  // A flap does.
  h.record_flap(kPort, t0 + 450s);
  EXPECT_TRUE(h.expire_quiet(t0 + 749s).empty());
  const auto gone = h.expire_quiet(t0 + 750s);
  ASSERT_EQ(gone.size(), 1u);
  EXPECT_EQ(gone[0], kPort);
  EXPECT_TRUE(h.marked().empty());
}

TEST(PortHealth, NoQuietPeriodMeansOnlyTheOperatorClears) {
  PortHealth h(symbol_errors_over(1));
  ASSERT_TRUE(h.record_errors(kPort, with(PortCounter::kSymbolError, 2), 10, t0));
  EXPECT_TRUE(h.expire_quiet(t0 + 1000000s).empty());
  EXPECT_TRUE(h.clear(kPort));
  EXPECT_FALSE(h.clear(kPort)) << "not marked any more";
  EXPECT_TRUE(h.marked().empty());
}

TEST(PortHealth, ClearForgetsTheFlapHistory) {
  HealthThresholds t;
  t.flap_count = 2;
  PortHealth h(t);
  h.record_flap(kPort, t0);
  ASSERT_TRUE(h.record_flap(kPort, t0 + 1s));
  EXPECT_TRUE(h.clear(kPort));
  EXPECT_EQ(h.flaps(kPort, t0 + 2s), 0u);
  EXPECT_FALSE(h.record_flap(kPort, t0 + 2s)) << "one flap after the clear";
}

TEST(PortHealth, ReloadKeepsMarksRetainDropsOnlyFlapHistory) {
  HealthThresholds t = symbol_errors_over(10);
  t.flap_count = 5;
  PortHealth h(t);
  const PortKey other{0x200, 1};
  ASSERT_TRUE(h.record_errors(kPort, with(PortCounter::kSymbolError, 11), 10, t0));
  h.record_flap(other, t0);
  h.set_thresholds(symbol_errors_over(100));
  EXPECT_EQ(h.marked().count(kPort), 1u);
  EXPECT_FALSE(h.record_errors(other, with(PortCounter::kSymbolError, 50), 10, t0)) << "new threshold 100";
  h.retain({});
  EXPECT_EQ(h.flaps(other, t0), 0u);
  EXPECT_EQ(h.marked().count(kPort), 1u) << "a marked port that left stays marked";
}

}  // namespace
}  // namespace smd::port_health_test
