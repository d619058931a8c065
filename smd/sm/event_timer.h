// EventTimer: a timer whose firing only queues one DaemonEvent of a fixed kind, stamped with the
// generation of the arming that fired. Re-arming or cancelling starts a new generation, so a firing that
// a later arming overtook is recognised as stale when its event is applied (is_current()): the event may
// already be queued behind a sweep when the timer is re-armed.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>

#include "smd/sm/daemon_event.h"

namespace smd {

class EventTimer {
 public:
  using Clock = std::chrono::steady_clock;

  /// Each firing posts a DaemonEvent{kind, timer_gen} through `post`, after `on_fire` (if any) ran.
  EventTimer(boost::asio::io_context& io, SmEvent kind, std::function<void(DaemonEvent)> post)
      : timer_(io), kind_(kind), post_(std::move(post)) {}

  /// Fire at `at`; an earlier arming is overtaken. `on_fire` runs in the timer's handler, before the post.
  void arm_at(Clock::time_point at, std::function<void()> on_fire = {}) {
    const std::uint64_t gen = ++gen_;
    timer_.expires_at(at);  // cancels an earlier wait: its handler sees operation_aborted
    timer_.async_wait([this, gen, on_fire = std::move(on_fire)](const boost::system::error_code& ec) {
      if (ec || gen != gen_) return;
      if (on_fire) on_fire();
      DaemonEvent event;
      event.kind = kind_;
      event.timer_gen = gen;
      post_(std::move(event));
    });
  }
  void arm_after(Clock::duration after, std::function<void()> on_fire = {}) {
    arm_at(Clock::now() + after, std::move(on_fire));
  }

  /// No firing of any earlier arming counts any more.
  void cancel() {
    ++gen_;
    timer_.cancel();
  }

  /// True when `gen` (an event's timer_gen) is the latest arming: neither re-armed nor cancelled since.
  bool is_current(std::uint64_t gen) const { return gen == gen_; }
  std::uint64_t generation() const { return gen_; }
  Clock::time_point expiry() const { return timer_.expiry(); }

 private:
  boost::asio::steady_timer timer_;
  SmEvent kind_;
  std::function<void(DaemonEvent)> post_;
  std::uint64_t gen_ = 0;
};

}  // namespace smd
