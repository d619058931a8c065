// SweepRecord (smd/sm/sweep_record.h): what a heavy sweep adds to the counters, and the last sweep kept.
#include "smd/sm/sweep_record.h"

#include <gtest/gtest.h>

namespace smd::sweep_record_test {
namespace {

SweepSummary sweep(double total_ms, double routing_ms) {
  SweepSummary s;
  s.smps_sent = 120;
  s.retries = 3;
  s.timeouts = 1;
  s.lft_blocks_written = 10;
  s.pkey_blocks_written = 4;
  s.sl2vl_tables_written = 6;
  s.vlarb_blocks_written = 8;
  s.mft_blocks_written = 2;
  s.total_ms = total_ms;
  PhaseTime discovery;
  discovery.id = SweepPhase::kDiscovery;
  discovery.ms = 40;
  PhaseTime routing;
  routing.id = SweepPhase::kRouting;
  routing.ms = routing_ms;
  s.phases = {discovery, routing};
  return s;
}

TEST(SweepRecord, EachHeavySweepAddsItsSmpsWritesAndTimes) {
  SweepRecord r;
  r.count_sweep(sweep(500, 250));
  SweepSummary incremental = sweep(1500, 750);
  incremental.incremental = true;
  incremental.full_discovery_because = "a switch was replaced";
  r.count_sweep(incremental);
  const DaemonCounters& c = r.counters();
  EXPECT_EQ(c.heavy_sweeps, 2u);
  EXPECT_EQ(c.incremental_sweeps, 1u);
  EXPECT_EQ(c.incremental_fallbacks, 1u);
  EXPECT_EQ(c.smps_sent, 240u);
  EXPECT_EQ(c.smp_retries, 6u);
  EXPECT_EQ(c.smp_timeouts, 2u);
  EXPECT_EQ(c.lft_blocks_written, 20u);
  EXPECT_EQ(c.pkey_blocks_written, 8u);
  EXPECT_EQ(c.sl2vl_tables_written, 12u);
  EXPECT_EQ(c.vlarb_blocks_written, 16u);
  EXPECT_EQ(c.mft_blocks_written, 4u);
  EXPECT_DOUBLE_EQ(c.heavy_sweep_seconds_total, 2.0);  // 0.5 s + 1.5 s
  EXPECT_DOUBLE_EQ(c.routing_seconds_total, 1.0);      // only the routing phase: 0.25 s + 0.75 s
  EXPECT_EQ(c.light_sweeps, 0u);                       // not a heavy sweep's to count
}

TEST(SweepRecord, TheLastSweepIsTheOneNotedLast) {
  SweepRecord r;
  EXPECT_FALSE(r.last_sweep().subnet_up);
  EXPECT_EQ(r.last_sweep_time(), std::chrono::system_clock::time_point{});
  SweepSummary up = sweep(10, 1);
  up.subnet_up = true;
  const auto t = std::chrono::system_clock::now();
  r.note_last_sweep(up, t, /*configured=*/true);
  EXPECT_TRUE(r.last_sweep().subnet_up);
  EXPECT_EQ(r.last_sweep_time(), t);
  EXPECT_EQ(r.counters().heavy_sweeps, 0u);  // noting is not counting
}

TEST(SweepRecord, HistoryKeepsTheLastSweepsAndRepairsInOrder) {
  SweepRecord r;
  const auto t0 = std::chrono::system_clock::time_point{} + std::chrono::hours(1);
  SweepSummary up = sweep(10, 1);
  up.subnet_up = true;
  SweepSummary bad = sweep(20, 1);
  bad.problems.resize(3);
  r.note_last_sweep(up, t0, /*configured=*/true);
  r.note_repair(31.5, t0 + std::chrono::seconds(1));
  r.note_last_sweep(bad, t0 + std::chrono::seconds(2), true);
  r.note_last_sweep(up, t0 + std::chrono::seconds(3), /*configured=*/false);  // a standby's discovery
  ASSERT_EQ(r.history().size(), 4u);
  EXPECT_EQ(r.history()[0].kind, "sweep");
  EXPECT_DOUBLE_EQ(r.history()[0].ms, 10);
  EXPECT_EQ(r.history()[1].kind, "repair");
  EXPECT_DOUBLE_EQ(r.history()[1].ms, 31.5);
  EXPECT_EQ(r.history()[1].at, t0 + std::chrono::seconds(1));
  EXPECT_EQ(r.history()[2].kind, "failed");
  EXPECT_EQ(r.history()[2].problems, 3u);
  EXPECT_EQ(r.history()[3].kind, "discovery");

  // Bounded: the oldest entries go first.
  for (std::size_t i = 0; i < SweepRecord::kHistory; ++i) r.note_repair(static_cast<double>(i), t0);
  ASSERT_EQ(r.history().size(), SweepRecord::kHistory);
  EXPECT_DOUBLE_EQ(r.history().front().ms, 0);
  EXPECT_DOUBLE_EQ(r.history().back().ms, static_cast<double>(SweepRecord::kHistory - 1));
}

}  // namespace
}  // namespace smd::sweep_record_test
