// smctl's exit code for the daemon's answer (smd/smctl/answer_exit.h): 1 for an error, 5 for a what-if drain
// that is not safe (and for one whose verdict cannot be read), 0 otherwise; the verdict belongs to what-if
// drain alone.
#include "smd/smctl/answer_exit.h"

#include <gtest/gtest.h>

namespace smd::smctl::answer_exit_test {
namespace {

using control::Json;

Json answer(Json result) { return Json{{"ok", true}, {"result", std::move(result)}}; }

TEST(AnswerExit, WhatIfDrainExitsFiveWhenPairsWouldLoseEveryPath) {
  EXPECT_EQ(answer_exit_code("what_if_drain", answer({{"safe", true}, {"lost_pairs", 0}})), kExitOk);
  EXPECT_EQ(answer_exit_code("what_if_drain", answer({{"safe", false}, {"lost_pairs", 30}})), kExitWouldLosePairs);
  EXPECT_EQ(kExitWouldLosePairs, 5);  // smctl.8 and `smd plan --drain` say 5
  // A verdict that is missing or not a boolean is not "safe".
  EXPECT_EQ(answer_exit_code("what_if_drain", answer({{"lost_pairs", 0}})), kExitWouldLosePairs);
  EXPECT_EQ(answer_exit_code("what_if_drain", answer({{"safe", "yes"}})), kExitWouldLosePairs);
  EXPECT_EQ(answer_exit_code("what_if_drain", Json{{"ok", true}}), kExitWouldLosePairs);
}

TEST(AnswerExit, ErrorsAreOneAndOtherCommandsIgnoreAVerdict) {
  EXPECT_EQ(answer_exit_code("what_if_drain", Json{{"ok", false}, {"error", "no node is named 'x'"}}),
            kExitDaemonError);
  EXPECT_EQ(answer_exit_code("drain", Json{{"ok", false}, {"error", "refused"}}), kExitDaemonError);
  EXPECT_EQ(answer_exit_code("status", Json::array()), kExitDaemonError);
  EXPECT_EQ(answer_exit_code("drain", answer({{"safe", false}})), kExitOk);
  EXPECT_EQ(answer_exit_code("status", answer(Json::object())), kExitOk);
}

// A what-if's error says its kind ("code", the ErrorCode's name): a name that names nothing exits 2 as
// `smd plan --drain` does for it, a what-if asked while another runs exits 6 (ask again), any other error 1.
TEST(AnswerExit, WhatIfDrainErrorsExitByTheirCode) {
  const auto err = [](const char* code) { return Json{{"ok", false}, {"error", "e"}, {"code", code}}; };
  EXPECT_EQ(answer_exit_code("what_if_drain", err("invalid-input")), 2);
  EXPECT_EQ(answer_exit_code("what_if_drain", err("timeout")), 6);
  EXPECT_EQ(answer_exit_code("what_if_drain", err("declined")), 1);
  EXPECT_EQ(answer_exit_code("what_if_drain", Json{{"ok", false}, {"error", "e"}, {"code", 7}}), 1);
  EXPECT_EQ(answer_exit_code("drain", err("invalid-input")), 1);  // the code is the what-if's alone
  EXPECT_EQ(kExitBadInput, kExitNoConnection);                    // both 2: smctl.8 says so
}

}  // namespace
}  // namespace smd::smctl::answer_exit_test
