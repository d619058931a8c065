// SweepScheduler: when heavy and light sweeps run, owned apart from the Daemon. Heavy-sweep requests are
// coalesced (PendingSweep) behind one timer whose firing only queues kHeavySweepDue; the light-sweep timer
// queues kLightSweepDue. It also keeps what outlives one sweep for the next decision: the sweep number, the
// one running, why the election gate stopped it, failures in a row, heavy sweeps in a row whose every SMP
// failed to send, and the repair clock (from the first change seen to the sweep that repaired it).
// It decides nothing about the SM's state: the daemon asks it only in states that sweep.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "smd/sm/daemon_event.h"
#include "smd/sm/event_timer.h"
#include "smd/sm/pending_sweep.h"

namespace smd {

class SweepScheduler {
 public:
  using Clock = std::chrono::steady_clock;

  /// The timers' firings go to `post` (the daemon's queue).
  SweepScheduler(boost::asio::io_context& io, std::function<void(DaemonEvent)> post);

  /// Record a heavy-sweep request and make the timer fire by `due`: a sweep already due (its event queued)
  /// or armed sooner covers it; one armed later is brought forward.
  void request(Clock::time_point due, const std::string& reason, SweepScope scope = SweepScope::kFull,
               Lid trap_lid = 0);
  /// Forget pending requests and disarm the heavy-sweep timer.
  void cancel();
  /// kHeavySweepDue with `timer_gen`: true when it is the current firing and the sweep is still due (the
  /// caller runs it now); false when re-armed or cancelled since.
  bool take_due(std::uint64_t timer_gen);

  /// A heavy sweep begins at `now`: its number (1, 2, ...) and what it reads; the pending requests are
  /// taken and the gate's reason cleared.
  struct Started {
    std::uint64_t number = 0;
    SweepOrder order;
  };
  Started begin(Clock::time_point now);
  /// The heavy sweep ended. `all_sends_failed`: it sent SMPs and every one failed. Returns how many heavy
  /// sweeps in a row now failed that way (0 after one that sent anything).
  unsigned end(bool all_sends_failed);
  /// The number of the heavy sweep in progress, 0 = none.
  std::uint64_t running() const { return running_; }
  /// Why the election gate stopped the sweep in progress ("" = it did not).
  void set_gate_why(std::string why) { gate_why_ = std::move(why); }
  const std::string& gate_why() const { return gate_why_; }
  /// A configuring sweep's result: configuring sweeps in a row that did not bring the subnet up.
  unsigned count_result(bool subnet_up) { return failed_in_row_ = subnet_up ? 0 : failed_in_row_ + 1; }

  /// A fabric change was seen at `at`: the repair clock starts unless it already runs.
  void change_seen(Clock::time_point at) {
    if (change_seen_ == Clock::time_point{}) change_seen_ = at;
  }
  /// The repair clock starts at `at` whatever it said (a takeover repairs from its own start).
  void restart_repair_clock(Clock::time_point at) { change_seen_ = at; }
  /// After a configuring sweep that brought the subnet up at `now`: the milliseconds from the change to
  /// now when this sweep began after that change (the clock stops), else nullopt (a change seen while it
  /// ran is the next sweep's to repair).
  std::optional<double> repaired(Clock::time_point now, bool subnet_up);
  /// The last repair's milliseconds (0 until one).
  double last_repair_ms() const { return last_repair_ms_; }

  /// Light sweeps: fire kLightSweepDue after `after`; cancel; whether `timer_gen` is the current arming.
  void arm_light(Clock::duration after) { light_timer_.arm_after(after); }
  void cancel_light() { light_timer_.cancel(); }
  bool light_current(std::uint64_t timer_gen) const { return light_timer_.is_current(timer_gen); }

 private:
  EventTimer sweep_timer_;  ///< kHeavySweepDue
  EventTimer light_timer_;  ///< kLightSweepDue
  PendingSweep pending_;
  bool armed_ = false;             ///< the sweep timer waits
  bool due_ = false;               ///< it fired; its kHeavySweepDue is queued (and takes every request until it runs)
  std::uint64_t seq_ = 0;          ///< heavy sweeps started
  std::uint64_t running_ = 0;      ///< the heavy sweep in progress, 0 = none
  std::string gate_why_;
  unsigned failed_in_row_ = 0;
  unsigned dead_port_sweeps_ = 0;  ///< heavy sweeps in a row whose every SMP failed to send
  Clock::time_point change_seen_{};    ///< first change not yet repaired
  Clock::time_point sweep_started_{};  ///< when the last heavy sweep began
  double last_repair_ms_ = 0;
};

}  // namespace smd
