// SweepRecord: what the sweeps have done, as the published snapshot reports it: the counters since the
// daemon started (Prometheus counters, monotonic), the last heavy sweep's summary and when it ended, and
// the last frozen FabricSnapshot, and the recent history of sweeps and repairs (a bounded list, so a
// fabric view opened now still shows what happened before it). The Daemon adds to it between sweeps only; the control socket and the
// metrics endpoint read the snapshot it holds, never the record itself.
#pragma once

#include <chrono>
#include <deque>
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
  /// `s` becomes the last sweep, ended at `at` (wall clock, for `smctl status`), and enters the history as
  /// "sweep"/"failed" when this SM `configured` the fabric, else (the discovery gate stopped it: another SM
  /// is master) as "discovery".
  void note_last_sweep(const SweepSummary& s, std::chrono::system_clock::time_point at, bool configured);
  /// A repair ended at `at`, `ms` after the change was seen: into the history.
  void note_repair(double ms, std::chrono::system_clock::time_point at);
  /// How many sweeps and repairs the history keeps: at one sweep per sweep_interval (10 s by default) about
  /// ten minutes, the fabric view's timeline; many more after a burst of traps.
  static constexpr std::size_t kHistory = 64;
  /// The last kHistory sweeps and repairs, oldest first.
  const std::deque<SweepHistoryEntry>& history() const { return history_; }
  /// The last heavy sweep's summary (a default one before the first).
  const SweepSummary& last_sweep() const { return last_; }
  std::chrono::system_clock::time_point last_sweep_time() const { return last_time_; }

  /// The snapshot published last (null before the first publish).
  const std::shared_ptr<const FabricSnapshot>& snapshot() const { return snapshot_; }
  void set_snapshot(std::shared_ptr<const FabricSnapshot> snap) { snapshot_ = std::move(snap); }

 private:
  void remember(SweepHistoryEntry e);

  DaemonCounters counters_;
  SweepSummary last_;
  std::chrono::system_clock::time_point last_time_{};
  std::deque<SweepHistoryEntry> history_;
  std::shared_ptr<const FabricSnapshot> snapshot_;
};

}  // namespace smd
