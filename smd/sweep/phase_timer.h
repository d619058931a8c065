// PhaseTimer: times one phase of a heavy sweep into its summary and logs it in the field's words
// ("sweep: links armed (3.2 ms)"), in the order the phases ran.
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>
#include <utility>

#include "smd/state/sweep_summary.h"

namespace smd {

using SweepClock = std::chrono::steady_clock;

/// Milliseconds since `t0`.
inline double ms_since(SweepClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(SweepClock::now() - t0).count();
}

class PhaseTimer {
 public:
  PhaseTimer(SweepSummary& s, SweepPhase id, std::string name)
      : s_(s), id_(id), name_(std::move(name)), t0_(SweepClock::now()) {}
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  ~PhaseTimer() {
    const double ms = ms_since(t0_);
    s_.phases.push_back({id_, name_, ms});
    spdlog::info("sweep: {} ({:.1f} ms)", name_, ms);
  }

 private:
  SweepSummary& s_;
  SweepPhase id_;
  std::string name_;
  SweepClock::time_point t0_;
};

}  // namespace smd
