// SaInbox: what the other threads hand the SA thread (sa_agent.h) — queued MADs, forwarded traps, "a new
// snapshot was published", "stop" — behind one lock, and the SA thread's sleep until one comes. The receive
// thread only appends under the lock; the SA thread swaps everything out at once, so neither waits on the
// other's work.
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <span>
#include <vector>

#include "mad/codec/notice.h"
#include "routing/base/ids.h"
#include "mad/transport/mad_channel.h"

namespace smd::sa {

class SaInbox {
 public:
  /// One MAD as received, with its source and arrival (the answer's latency counts from here).
  struct Request {
    std::array<std::uint8_t, mad::kMadSize> mad;
    mad::MadAddress from;
    std::chrono::steady_clock::time_point arrived;
  };
  /// A trap the SM forwarded, with the LID that issued it.
  struct Notify {
    mad::Notice notice;
    Lid issuer_lid = 0;
  };
  /// Everything one wake-up takes.
  struct Batch {
    std::deque<Request> requests;
    std::vector<Notify> notices;
    bool published = false;
  };

  explicit SaInbox(std::size_t depth) : depth_(depth) {}

  /// Queue one MAD (truncated to 256 bytes). False when `depth` MADs already wait (the caller counts it).
  bool push(std::span<const std::uint8_t> mad, const mad::MadAddress& from);
  void forward(const mad::Notice& notice, Lid issuer_lid);
  void published();
  /// Ask the SA thread to end; wait_for_batch() then returns false.
  void stop();
  /// Sleep until something comes or `deadline`; take all of it into `out`. False once stop() was called.
  bool wait_for_batch(std::chrono::steady_clock::time_point deadline, Batch& out);
  /// MADs waiting now.
  std::size_t depth() const;

 private:
  const std::size_t depth_;
  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable wake_;
  std::deque<Request> queue_;
  std::vector<Notify> notices_;
  bool published_ = false;
  bool stop_ = false;
};

}  // namespace smd::sa
