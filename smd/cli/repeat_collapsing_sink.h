// A spdlog sink in front of the real one that collapses repeated warnings: the first of identical warnings
// or errors passes at once; its repeats within a window are counted, not written, and once the window has
// passed one line says how many there were: "<message> [44 more in 40 s]". A node that stops answering then
// fills the log with one line per minute instead of one per sweep. Info and debug lines pass untouched.
// The summary is written by the next line logged after the window ends, or by close_ended_windows(), which
// logging.cpp's ticker calls every few seconds so a count is not held back while the log is quiet.
#pragma once

#include <spdlog/sinks/dist_sink.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace smd {

class RepeatCollapsingSink final : public spdlog::sinks::dist_sink<std::mutex> {
 public:
  /// `window`: how long identical warnings are counted before a summary line; `max_tracked`: distinct
  /// messages tracked at once (beyond it a warning passes uncounted: nothing is lost, only not collapsed).
  RepeatCollapsingSink(std::shared_ptr<spdlog::sinks::sink> inner, std::chrono::seconds window,
                       std::size_t max_tracked = 4096);

  /// Write the summaries of the windows that ended by `now` (thread-safe; the sink's own lock).
  void close_ended_windows(spdlog::log_clock::time_point now);

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  /// Writes the summaries of open windows too (the daemon flushes when it stops), then flushes the sink.
  void flush_() override;

 private:
  struct Seen {
    spdlog::level::level_enum level;
    std::string text;  // the payload, kept to write the summary after the caller's buffer is gone
    spdlog::log_clock::time_point first;
    spdlog::log_clock::time_point last;
    std::size_t repeats = 0;  // written 0 times after the first
  };
  // Write "[N more in T s]" for every message whose window ended by `now` (every one with `all`); forget them.
  void close_windows(spdlog::log_clock::time_point now, bool all = false);

  std::chrono::seconds window_;
  std::size_t max_tracked_;
  std::unordered_map<std::string, Seen> seen_;                                       // key: level and payload
  spdlog::log_clock::time_point next_close_ = spdlog::log_clock::time_point::max();  // earliest window end
};

}  // namespace smd
