// EventQueue: the Daemon's events, recorded by every handler and applied only by the main loop, between
// handlers (the FRR rule: an event never runs inside another handler). While a sweep runs, a signal, an
// SMInfo Set, a trap or a control request only lands here; the state machine applies them after it.
// Stopping is part of the queue: once stopped, nothing more is applied, and the first stop's exit code is
// what the daemon returns.
#pragma once

#include <deque>
#include <functional>
#include <vector>

#include "smd/sm/daemon_event.h"

namespace smd {

class EventQueue {
 public:
  /// Record `event` (stamped with now when its `at` is unset). Never runs it.
  void post(DaemonEvent event);
  /// Apply the queued events oldest first through `dispatch`, those it posts included, until the queue is
  /// empty or stop() was called. Must not be called from inside `dispatch` (asserted).
  void apply(const std::function<void(const DaemonEvent&)>& dispatch);
  /// The kinds of the events not applied yet, oldest first (what project_state reads).
  std::vector<SmEvent> kinds() const;

  /// Stop applying, for good. `exit_code`: what the daemon returns; a later stop does not change it.
  void stop(int exit_code = 0);
  bool stopping() const { return stopping_; }
  int exit_code() const { return exit_code_; }

 private:
  std::deque<DaemonEvent> events_;
  bool applying_ = false;  ///< apply() is on the stack
  bool stopping_ = false;
  int exit_code_ = 0;
};

}  // namespace smd
