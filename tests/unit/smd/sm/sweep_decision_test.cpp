// The next sweep after one that was not up, from the problems' codes (smd/sm/sweep_decision.h).
#include "smd/sm/sweep_decision.h"

#include <gtest/gtest.h>

#include <vector>

namespace smd::sweep_decision_test {
namespace {

using std::chrono::milliseconds;

SweepProblem problem(ProblemCode code) { return {code, 0x10, "0,1", "PortInfo 1", "test"}; }

SweepDecision decide(std::vector<ProblemCode> codes, unsigned failed_in_row = 1, unsigned max_resweeps = 3,
                     unsigned interval_s = 10) {
  std::vector<SweepProblem> problems;
  for (ProblemCode c : codes) problems.push_back(problem(c));
  return decide_after_failed_sweep(problems, failed_in_row, max_resweeps, interval_s);
}

struct CodeCase {
  ProblemCode code;
  NextSweep next;
  SweepScope scope;
  milliseconds delay;
};

class OneCode : public ::testing::TestWithParam<CodeCase> {};

TEST_P(OneCode, DecidesWhatHelps) {
  const CodeCase& c = GetParam();
  const SweepDecision d = decide({c.code});
  EXPECT_EQ(d.next, c.next) << to_string(c.code);
  EXPECT_EQ(d.scope, c.scope) << to_string(c.code);
  EXPECT_EQ(d.delay, c.delay) << to_string(c.code);
  EXPECT_FALSE(d.reason.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Codes, OneCode,
    ::testing::Values(
        // Asked again soon, for what is unread or missing (as before codes existed).
        CodeCase{ProblemCode::kTimeout, NextSweep::kAskAgain, SweepScope::kFailed, milliseconds(500)},
        CodeCase{ProblemCode::kRefused, NextSweep::kAskAgain, SweepScope::kFailed, milliseconds(500)},
        CodeCase{ProblemCode::kNotTaken, NextSweep::kAskAgain, SweepScope::kFailed, milliseconds(500)},
        CodeCase{ProblemCode::kMalformed, NextSweep::kAskAgain, SweepScope::kFailed, milliseconds(500)},
        CodeCase{ProblemCode::kNotActive, NextSweep::kAskAgain, SweepScope::kFailed, milliseconds(500)},
        // Contradicting answers: the whole fabric again, as soon.
        CodeCase{ProblemCode::kInconsistent, NextSweep::kRediscover, SweepScope::kFull, milliseconds(500)},
        // Only a change helps: once per sweep interval.
        CodeCase{ProblemCode::kCapacity, NextSweep::kWaitForOperator, SweepScope::kFull, milliseconds(10000)},
        CodeCase{ProblemCode::kNoRoute, NextSweep::kWaitForOperator, SweepScope::kFull, milliseconds(10000)}));

TEST(SweepDecision, TheStrongestNeedWins) {
  EXPECT_EQ(decide({ProblemCode::kCapacity, ProblemCode::kTimeout}).next, NextSweep::kAskAgain);
  EXPECT_EQ(decide({ProblemCode::kTimeout, ProblemCode::kInconsistent}).next, NextSweep::kRediscover);
  EXPECT_EQ(decide({ProblemCode::kNoRoute, ProblemCode::kInconsistent, ProblemCode::kCapacity}).next,
            NextSweep::kRediscover);
  EXPECT_EQ(decide({ProblemCode::kNoRoute, ProblemCode::kCapacity}).next, NextSweep::kWaitForOperator);
}

TEST(SweepDecision, NoProblemsButNotUpIsAskedAgain) {
  const SweepDecision d = decide({});
  EXPECT_EQ(d.next, NextSweep::kAskAgain);
  EXPECT_EQ(d.scope, SweepScope::kFailed);
}

TEST(SweepDecision, PastMaxResweepsOncePerSweepIntervalWhateverTheCodes) {
  // Today's rule for lost SMPs: sm.max_resweeps quick re-sweeps, then a full sweep every interval.
  for (unsigned row = 1; row <= 3; ++row) {
    const SweepDecision d = decide({ProblemCode::kTimeout}, row, 3, 10);
    EXPECT_EQ(d.next, NextSweep::kAskAgain) << row;
    EXPECT_EQ(d.delay, milliseconds(500));
    EXPECT_EQ(d.reason, "re-sweep of what failed");
  }
  for (ProblemCode c : {ProblemCode::kTimeout, ProblemCode::kInconsistent, ProblemCode::kCapacity}) {
    const SweepDecision d = decide({c}, 4, 3, 10);
    EXPECT_EQ(d.next, NextSweep::kPersistent) << to_string(c);
    EXPECT_EQ(d.scope, SweepScope::kFull);
    EXPECT_EQ(d.delay, milliseconds(10000));
    EXPECT_EQ(d.reason, "full re-sweep: still not up");
  }
  // max_resweeps 0: every failure is already persistent.
  EXPECT_EQ(decide({ProblemCode::kTimeout}, 1, 0, 10).next, NextSweep::kPersistent);
}

TEST(SweepDecision, AZeroSweepIntervalWaitsOneSecond) {
  EXPECT_EQ(decide({ProblemCode::kTimeout}, 4, 3, 0).delay, milliseconds(1000));
  EXPECT_EQ(decide({ProblemCode::kCapacity}, 1, 3, 0).delay, milliseconds(1000));
}

TEST(SweepDecision, TheWaitNamesTheCode) {
  EXPECT_NE(decide({ProblemCode::kCapacity}).reason.find("capacity"), std::string::npos);
}

}  // namespace
}  // namespace smd::sweep_decision_test
