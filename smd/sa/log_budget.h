// LogBudget: how many lines a source any host can trigger may write to the log. The SA warns about what
// a requester got wrong (a refused MCMemberRecord, an answer cut at sa.max_records, an answer it could
// not send); a host that sends such MADs at MAD rate must not fill the disk with them. The counters
// (smctl sa, metrics) keep every case; the log keeps a sample and says how many lines it held back.
#pragma once

#include <chrono>
#include <cstdint>

namespace smd::sa {

class LogBudget {
 public:
  using Clock = std::chrono::steady_clock;

  /// At most `per_window` lines in each `window` (a fixed window starting at the first line in it).
  LogBudget(unsigned per_window, Clock::duration window) : per_window_(per_window), window_(window) {}

  /// Whether a line may be logged at `now`. When it may, `held_back` is the number of lines refused since
  /// the last one allowed (to be said in this line), and the count starts again.
  bool allow(Clock::time_point now, std::uint64_t& held_back) {
    if (used_ == 0 || now - window_start_ >= window_) {
      window_start_ = now;
      used_ = 0;
    }
    if (used_ >= per_window_) {
      ++held_back_;
      return false;
    }
    ++used_;
    held_back = held_back_;
    held_back_ = 0;
    return true;
  }

 private:
  unsigned per_window_;
  Clock::duration window_;
  Clock::time_point window_start_{};
  unsigned used_ = 0;
  std::uint64_t held_back_ = 0;
};

}  // namespace smd::sa
