// RuntimeControls (smd/sm/runtime_controls.h): sweeps off/on with held-back sweeps, the log level's name,
// the SIGUSR1 reopen.
#include "smd/sm/runtime_controls.h"

#include <gtest/gtest.h>

namespace smd::runtime_controls_test {
namespace {

using SysClock = std::chrono::system_clock;

TEST(RuntimeControls, NothingIsHeldBackWhileSweepsRun) {
  RuntimeControls r("info");
  EXPECT_FALSE(r.hold_back("trap 128"));
  EXPECT_FALSE(r.sweeps_off_view().has_value());
  EXPECT_FALSE(r.sweeps_on().has_value());  // on while on: there was no off period
}

TEST(RuntimeControls, OffCountsHeldBackSweepsAndKeepsTheFirstReason) {
  RuntimeControls r("info");
  const SysClock::time_point t1 = SysClock::time_point{} + std::chrono::seconds(10);
  r.sweeps_off("uid 0 pid 1", "maintenance", t1);
  EXPECT_TRUE(r.hold_back("trap 128"));
  EXPECT_TRUE(r.hold_back("light sweep: port state"));
  ASSERT_TRUE(r.sweeps_off_view().has_value());
  EXPECT_EQ(r.sweeps_off_view()->deferred, 2u);
  EXPECT_EQ(r.sweeps_off_view()->first_deferred, "trap 128");
  // Off again: new requester and reason, the start and the count kept.
  r.sweeps_off("uid 1000 pid 2", "still maintenance", t1 + std::chrono::seconds(60));
  EXPECT_EQ(r.sweeps_off_view()->since, t1);
  EXPECT_EQ(r.sweeps_off_view()->by, "uid 1000 pid 2");
  EXPECT_EQ(r.sweeps_off_view()->reason, "still maintenance");
  EXPECT_EQ(r.sweeps_off_view()->deferred, 2u);
  const std::optional<SweepsOffView> was = r.sweeps_on();
  ASSERT_TRUE(was.has_value());
  EXPECT_EQ(was->deferred, 2u);
  EXPECT_EQ(was->first_deferred, "trap 128");
  EXPECT_FALSE(r.sweeps_off_view().has_value());
  EXPECT_FALSE(r.hold_back("trap 144"));
}

TEST(RuntimeControls, SetLogLevelReturnsTheOneItReplaces) {
  RuntimeControls r("info");
  EXPECT_EQ(r.log_level(), "info");
  EXPECT_EQ(r.set_log_level("debug"), "info");
  EXPECT_EQ(r.log_level(), "debug");
}

TEST(RuntimeControls, ReopenRunsWhatMainSetAndReportsItsStatus) {
  RuntimeControls r("info");
  EXPECT_FALSE(r.reopen_log().has_value());
  int calls = 0;
  r.set_log_reopen([&calls]() -> Status {
    ++calls;
    return make_error(ErrorCode::kIo, "/var/log/smd.log: permission denied");
  });
  const std::optional<Status> st = r.reopen_log();
  ASSERT_TRUE(st.has_value());
  EXPECT_FALSE(st->ok());
  EXPECT_EQ(st->error().code, ErrorCode::kIo);
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace smd::runtime_controls_test
