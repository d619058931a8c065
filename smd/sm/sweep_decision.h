// What to do after a heavy sweep that did not bring the subnet up, decided from the problems' codes
// (smd/fabric/sweep_problem.h), never from their text. Shared by the daemon and `smd --once`.
//
// What helps, by code:
//   kTimeout, kRefused, kNotTaken, kNotActive, kMalformed -> ask again (SweepScope::kFailed, 500 ms): a
//       resumed discovery asks for exactly what is unread, including the NodeInfo behind a port whose node
//       was not believed, and the later phases write only what is still missing (a lost Set, a refused
//       PortState that moved anyway, a link that was not Armed yet).
//   kInconsistent -> discover the whole fabric again (SweepScope::kFull, 500 ms): answers that contradict
//       each other (a duplicate GUID, a port claimed by two cables, cable ends that disagree) mean the
//       last sweep's fabric may itself be wrong, and a resumed sweep starts from it and re-reads only the
//       holes. This is the one outcome that differs from before codes existed (every failure was asked
//       again); the cost is a full discovery instead of a few SMPs, only while answers contradict.
//   kCapacity, kNoRoute -> wait for the operator (SweepScope::kFull once per sm.sweep_interval): the
//       fabric cannot hold the tables (LinearFDBCap, a path beyond 63 hops) or cannot be given LIDs or
//       verified routes as it is; asking again reads the same answers, so only a change helps (which a
//       trap or a light sweep reports anyway). Before codes, this spent sm.max_resweeps futile re-sweeps
//       500 ms apart first; `smd --once` now stops at once (exit 1, the same summary).
// When codes of several kinds occur, the strongest need wins: rediscover > ask again > wait. A sweep
// without problems that is still not up is asked again (as before).
// After more than sm.max_resweeps sweeps in a row that were not up, whatever the codes: a full sweep
// once per sm.sweep_interval (a port that never answers must not keep the SM busy).
#pragma once

#include <chrono>
#include <span>
#include <string>

#include "smd/fabric/sweep_problem.h"
#include "smd/sweep/sweep_scope.h"

namespace smd {

/// What one problem code asks for (the table above).
enum class ProblemNeed : std::uint8_t {
  kAskAgain,    ///< read again what is unread, write again what is missing
  kRediscover,  ///< discover the whole fabric again
  kOperator,    ///< no sweep can fix it; wait for a change
};

/// The need of one code.
ProblemNeed problem_need(ProblemCode code);

/// The kind of the next sweep.
enum class NextSweep : std::uint8_t {
  kAskAgain,         ///< SweepScope::kFailed in 500 ms
  kRediscover,       ///< SweepScope::kFull in 500 ms
  kWaitForOperator,  ///< SweepScope::kFull once per sweep interval; `smd --once` stops re-sweeping
  kPersistent,       ///< SweepScope::kFull once per sweep interval: more than max_resweeps in a row
};

/// The next sweep after one that was not up.
struct SweepDecision {
  NextSweep next = NextSweep::kAskAgain;
  SweepScope scope = SweepScope::kFailed;
  std::chrono::milliseconds delay{500};
  std::string reason;  ///< for the log and the sweep's reason ("re-sweep of what failed", ...)
};

/// Decide the next sweep from the problems of a sweep that was not up. `failed_in_row` counts the sweeps
/// in a row that were not up, this one included (>= 1); `max_resweeps` and `sweep_interval_s` are
/// sm.max_resweeps and sm.sweep_interval (seconds; 0 counts as 1 for the waits). Pure.
SweepDecision decide_after_failed_sweep(std::span<const SweepProblem> problems, unsigned failed_in_row,
                                        unsigned max_resweeps, unsigned sweep_interval_s);

}  // namespace smd
