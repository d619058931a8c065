#include "smd/sm/sweep_scheduler.h"

#include <utility>

namespace smd {

SweepScheduler::SweepScheduler(boost::asio::io_context& io, std::function<void(DaemonEvent)> post)
    : sweep_timer_(io, SmEvent::kHeavySweepDue, post), light_timer_(io, SmEvent::kLightSweepDue, post) {}

void SweepScheduler::request(Clock::time_point due, const std::string& reason, SweepScope scope, Lid trap_lid) {
  pending_.add(reason, scope, trap_lid);
  // A trap must not wait for a re-sweep armed a sweep interval away: only a sooner arming covers it.
  if (due_) return;
  if (armed_ && sweep_timer_.expiry() <= due) return;
  armed_ = true;
  sweep_timer_.arm_at(due, [this] {
    armed_ = false;
    due_ = true;
  });
}

void SweepScheduler::cancel() {
  armed_ = false;
  due_ = false;
  sweep_timer_.cancel();
  pending_.clear();
}

bool SweepScheduler::take_due(std::uint64_t timer_gen) {
  if (!sweep_timer_.is_current(timer_gen) || !due_) return false;
  due_ = false;
  return true;
}

SweepScheduler::Started SweepScheduler::begin(Clock::time_point now) {
  Started s;
  s.order = pending_.take();
  s.number = ++seq_;
  running_ = s.number;
  gate_why_.clear();
  sweep_started_ = now;
  return s;
}

unsigned SweepScheduler::end(bool all_sends_failed) {
  running_ = 0;
  dead_port_sweeps_ = all_sends_failed ? dead_port_sweeps_ + 1 : 0;
  return dead_port_sweeps_;
}

std::optional<double> SweepScheduler::repaired(Clock::time_point now, bool subnet_up) {
  if (change_seen_ == Clock::time_point{} || change_seen_ > sweep_started_ || !subnet_up) return std::nullopt;
  last_repair_ms_ = std::chrono::duration<double, std::milli>(now - change_seen_).count();
  change_seen_ = {};
  return last_repair_ms_;
}

}  // namespace smd
