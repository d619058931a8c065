#include "smd/sm/sweep_record.h"

#include <utility>

namespace smd {

void SweepRecord::count_sweep(const SweepSummary& s) {
  ++counters_.heavy_sweeps;
  if (s.incremental) ++counters_.incremental_sweeps;
  if (!s.full_discovery_because.empty()) ++counters_.incremental_fallbacks;
  counters_.smps_sent += s.smps_sent;
  counters_.smp_retries += s.retries;
  counters_.smp_timeouts += s.timeouts;
  counters_.lft_blocks_written += s.lft_blocks_written;
  counters_.pkey_blocks_written += s.pkey_blocks_written;
  counters_.sl2vl_tables_written += s.sl2vl_tables_written;
  counters_.vlarb_blocks_written += s.vlarb_blocks_written;
  counters_.mft_blocks_written += s.mft_blocks_written;
  counters_.heavy_sweep_seconds_total += s.total_ms / 1000.0;
  for (const PhaseTime& p : s.phases) {
    if (p.id == SweepPhase::kRouting) counters_.routing_seconds_total += p.ms / 1000.0;
  }
}

void SweepRecord::note_last_sweep(const SweepSummary& s, std::chrono::system_clock::time_point at, bool configured) {
  last_ = s;
  last_time_ = at;
  const char* kind = !configured ? "discovery" : (s.subnet_up ? "sweep" : "failed");
  remember({at, kind, s.total_ms, s.problems.size()});
}

void SweepRecord::note_repair(double ms, std::chrono::system_clock::time_point at) { remember({at, "repair", ms, 0}); }

void SweepRecord::remember(SweepHistoryEntry e) {
  history_.push_back(std::move(e));
  while (history_.size() > kHistory) history_.pop_front();
}

}  // namespace smd
