// SweepScope: how much of the fabric a heavy sweep reads. Plain data, so the SM's pure scheduling rules
// (smd/sm/sweep_decision.h, pending_sweep.h) need none of the sweep's machinery.
#pragma once

#include <cstdint>

namespace smd {

/// What a heavy sweep reads.
enum class SweepScope : std::uint8_t {
  kFull,     ///< discover the whole fabric
  kFailed,   ///< re-sweep: read only what the last sweep could not, then write only what is missing
  kChanged,  ///< after traps: re-read only the switches that changed (incremental_discovery.h)
};

}  // namespace smd
