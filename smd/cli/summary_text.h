// Human-readable sweep summary, as `smd --once` prints it.
#pragma once

#include <ostream>

#include "smd/state/sweep_summary.h"

namespace smd {

/// Print counts, SMP counters, phase times and every problem; `attempt` is 1-based.
void print_summary(std::ostream& out, const SweepSummary& s, unsigned attempt);

}  // namespace smd
