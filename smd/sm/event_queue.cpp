#include "smd/sm/event_queue.h"

#include <cassert>
#include <chrono>
#include <utility>

namespace smd {

void EventQueue::post(DaemonEvent event) {
  if (event.at == std::chrono::steady_clock::time_point{}) event.at = std::chrono::steady_clock::now();
  events_.push_back(std::move(event));
}

void EventQueue::apply(const std::function<void(const DaemonEvent&)>& dispatch) {
  // An action only posts, so this never nests: an event is applied only when the previous one (and the
  // sweep it may have run) is done.
  assert(!applying_);
  applying_ = true;
  while (!events_.empty() && !stopping_) {
    const DaemonEvent event = std::move(events_.front());
    events_.pop_front();
    dispatch(event);
  }
  applying_ = false;
}

std::vector<SmEvent> EventQueue::kinds() const {
  std::vector<SmEvent> out;
  out.reserve(events_.size());
  for (const DaemonEvent& e : events_) out.push_back(e.kind);
  return out;
}

void EventQueue::stop(int exit_code) {
  if (!stopping_) exit_code_ = exit_code;
  stopping_ = true;
}

}  // namespace smd
