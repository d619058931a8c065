// SweepRecord: what the sweeps have done, as the published snapshot reports it: the counters since the
// daemon started (Prometheus counters, monotonic), the last heavy sweep's summary and when it ended, and
// the last frozen FabricSnapshot. The Daemon adds to it between sweeps only; the control socket and the
// metrics endpoint read the snapshot it holds, never the record itself.
#pragma once

#include <chrono>
#include <memory>

#include "smd/state/fabric_snapshot.h"

namespace smd {

class SweepRecord {
 public:
  /// Counters other events add to (traps, elections, handovers, nudges, ...).
  DaemonCounters& counters() { return counters_; }
  const DaemonCounters& counters() const { return counters_; }

  /// A heavy sweep ended with `s`: its SMPs, table writes and times are added to the counters.
  void count_sweep(const SweepSummary& s);
  /// `s` becomes the last sweep, ended at `at` (wall clock, for `smctl status`).
  void note_last_sweep(const SweepSummary& s, std::chrono::system_clock::time_point at);
  /// The last heavy sweep's summary (a default one before the first).
  const SweepSummary& last_sweep() const { return last_; }
  std::chrono::system_clock::time_point last_sweep_time() const { return last_time_; }

  /// The snapshot published last (null before the first publish).
  const std::shared_ptr<const FabricSnapshot>& snapshot() const { return snapshot_; }
  void set_snapshot(std::shared_ptr<const FabricSnapshot> snap) { snapshot_ = std::move(snap); }

 private:
  DaemonCounters counters_;
  SweepSummary last_;
  std::chrono::system_clock::time_point last_time_{};
  std::shared_ptr<const FabricSnapshot> snapshot_;
};

}  // namespace smd
