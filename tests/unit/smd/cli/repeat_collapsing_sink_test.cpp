// Repeated warnings collapse into one line and a count (smd/cli/repeat_collapsing_sink.h), on a clock the
// test sets: each message carries its own time, so no test waits.
#include "smd/cli/repeat_collapsing_sink.h"

#include <gtest/gtest.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>
#include <string>

namespace smd::repeat_collapsing_sink_test {
namespace {

using namespace std::chrono_literals;

struct Rig {
  std::ostringstream out;
  std::shared_ptr<RepeatCollapsingSink> sink;
  spdlog::log_clock::time_point t0 = spdlog::log_clock::time_point(std::chrono::seconds(1'000'000));
  Rig() {
    sink = std::make_shared<RepeatCollapsingSink>(std::make_shared<spdlog::sinks::ostream_sink_st>(out), 60s, 3);
    sink->set_formatter(std::make_unique<spdlog::pattern_formatter>("%l %v"));
  }
  void log(std::chrono::seconds at, spdlog::level::level_enum level, const std::string& text) {
    spdlog::details::log_msg m(t0 + at, spdlog::source_loc{}, "smd", level, text);
    sink->log(m);
  }
};

TEST(RepeatCollapsingSink, AWarningRepeatedInAMinuteIsWrittenOnceThenCounted) {
  Rig r;
  for (int i = 0; i < 45; ++i) r.log(std::chrono::seconds(i), spdlog::level::warn, "discovery: node 0x2 silent");
  r.log(50s, spdlog::level::info, "sweep done");  // other lines pass
  EXPECT_EQ(r.out.str(), "warning discovery: node 0x2 silent\ninfo sweep done\n");
  r.log(61s, spdlog::level::info, "sweep done");  // the window is over: the count is written first
  EXPECT_EQ(r.out.str(),
            "warning discovery: node 0x2 silent\ninfo sweep done\n"
            "warning discovery: node 0x2 silent [44 more in 44 s]\ninfo sweep done\n");
  r.log(62s, spdlog::level::warn, "discovery: node 0x2 silent");  // a new window: written again
  EXPECT_NE(r.out.str().rfind("warning discovery: node 0x2 silent\n"), std::string::npos);
}

TEST(RepeatCollapsingSink, InfoLinesAndDifferentWarningsAreNeverCollapsed) {
  Rig r;
  r.log(0s, spdlog::level::info, "same");
  r.log(1s, spdlog::level::info, "same");
  r.log(2s, spdlog::level::warn, "a");
  r.log(3s, spdlog::level::err, "a");  // another level is another message
  r.log(4s, spdlog::level::warn, "b");
  EXPECT_EQ(r.out.str(), "info same\ninfo same\nwarning a\nerror a\nwarning b\n");
}

TEST(RepeatCollapsingSink, AWarningWrittenOnceGetsNoSummary) {
  Rig r;
  r.log(0s, spdlog::level::warn, "once");
  r.log(120s, spdlog::level::info, "later");
  EXPECT_EQ(r.out.str(), "warning once\ninfo later\n");
}

TEST(RepeatCollapsingSink, BeyondTheTrackedLimitWarningsPassUncounted) {
  Rig r;  // tracks 3 distinct messages
  for (const char* w : {"a", "b", "c", "d", "d"}) r.log(0s, spdlog::level::warn, w);
  EXPECT_EQ(r.out.str(), "warning a\nwarning b\nwarning c\nwarning d\nwarning d\n");
}

TEST(RepeatCollapsingSink, TheTickerWritesACountWhenTheLogIsQuiet) {
  Rig r;
  r.log(0s, spdlog::level::warn, "x");
  r.log(30s, spdlog::level::warn, "x");
  r.sink->close_ended_windows(r.t0 + 59s);  // the window is still open: nothing yet
  EXPECT_EQ(r.out.str(), "warning x\n");
  r.sink->close_ended_windows(r.t0 + 60s);  // no line was logged since, and the count comes out
  EXPECT_EQ(r.out.str(), "warning x\nwarning x [1 more in 30 s]\n");
  r.log(61s, spdlog::level::warn, "x");  // a new window
  EXPECT_EQ(r.out.str(), "warning x\nwarning x [1 more in 30 s]\nwarning x\n");
}

TEST(RepeatCollapsingSink, FlushWritesTheCountsOfOpenWindows) {
  Rig r;
  r.log(0s, spdlog::level::warn, "x");
  r.log(5s, spdlog::level::warn, "x");
  r.log(9s, spdlog::level::warn, "x");
  r.sink->flush();  // as the daemon does when it stops
  EXPECT_EQ(r.out.str(), "warning x\nwarning x [2 more in 9 s]\n");
}

}  // namespace
}  // namespace smd::repeat_collapsing_sink_test
