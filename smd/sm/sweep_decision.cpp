#include "smd/sm/sweep_decision.h"

#include <algorithm>

namespace smd {

namespace {

// A lost SMP is asked again soon, rather than a whole sweep interval later.
constexpr std::chrono::milliseconds kResweepDelay{500};

std::chrono::milliseconds interval(unsigned sweep_interval_s) {
  return std::chrono::milliseconds(1000 * std::max(1u, sweep_interval_s));
}

}  // namespace

ProblemNeed problem_need(ProblemCode code) {
  switch (code) {
    case ProblemCode::kTimeout:
    case ProblemCode::kRefused:
    case ProblemCode::kNotTaken:
    case ProblemCode::kMalformed:
    case ProblemCode::kNotActive: return ProblemNeed::kAskAgain;
    case ProblemCode::kInconsistent: return ProblemNeed::kRediscover;
    case ProblemCode::kCapacity:
    case ProblemCode::kNoRoute: return ProblemNeed::kOperator;
  }
  return ProblemNeed::kAskAgain;
}

SweepDecision decide_after_failed_sweep(std::span<const SweepProblem> problems, unsigned failed_in_row,
                                        unsigned max_resweeps, unsigned sweep_interval_s) {
  if (failed_in_row > max_resweeps) {
    // Past sm.max_resweeps the re-sweep discovers the whole fabric again: resuming only asks for what is
    // unread, and cannot see a fabric that differs from what the last sweep believed.
    return {NextSweep::kPersistent, SweepScope::kFull, interval(sweep_interval_s), "full re-sweep: still not up"};
  }
  bool ask_again = problems.empty();
  bool rediscover = false;
  const SweepProblem* operator_problem = nullptr;
  for (const SweepProblem& p : problems) {
    switch (problem_need(p.code)) {
      case ProblemNeed::kAskAgain: ask_again = true; break;
      case ProblemNeed::kRediscover: rediscover = true; break;
      case ProblemNeed::kOperator:
        if (!operator_problem) operator_problem = &p;
        break;
    }
  }
  if (rediscover) {
    return {NextSweep::kRediscover, SweepScope::kFull, kResweepDelay, "full re-sweep: answers contradicted each other"};
  }
  if (ask_again || !operator_problem) {
    return {NextSweep::kAskAgain, SweepScope::kFailed, kResweepDelay, "re-sweep of what failed"};
  }
  return {NextSweep::kWaitForOperator, SweepScope::kFull, interval(sweep_interval_s),
          std::string("full sweep once per sweep interval: ") + to_string(operator_problem->code) +
              " needs a change in the fabric or the policy"};
}

}  // namespace smd
