// GmpManagerThread: the thread a GMP manager (the PerfMgr, IBA 16.1; the congestion-control manager, IBA
// Annex A10) runs its passes on, and what the other threads share with it. Both managers need the same
// things: one mutex that guards the requests other threads leave (a policy, a pass to run) and the inbox of
// answers the receive thread fills; one condition variable that every such request, an answer and a stop
// wake; a stop flag set under that mutex; start and stop that may be called twice. They are written once
// here; what a pass does and what the requests mean stay with the manager.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "mad/codec/smp.h"
#include "mad/transport/gmp_window.h"

namespace smd::mad {

/// One manager's thread, its stop flag, its mutex and wake-up, and its inbox of answers.
class GmpManagerThread {
 public:
  /// `inbox_limit`: answers that may wait at once (GmpInbox).
  explicit GmpManagerThread(std::size_t inbox_limit) : inbox_(inbox_limit) {}
  /// Stops and joins (the owner should stop first, before the state the loop reads goes away).
  ~GmpManagerThread() { stop(); }
  GmpManagerThread(const GmpManagerThread&) = delete;
  GmpManagerThread& operator=(const GmpManagerThread&) = delete;

  /// Run `loop` on a new thread named `name` (a string literal of at most 15 characters, as top and ps show
  /// it); nothing when it already runs. `loop` returns once stopping() holds.
  void start(const char* name, std::function<void()> loop);
  /// Set the stop flag under the mutex (a loop between its wait predicate and the wait itself would miss a
  /// flag set outside it), wake the loop and join it. Nothing when not running.
  void stop();
  bool running() const { return thread_.joinable(); }
  /// True once stop() began: the loop and its waits return.
  bool stopping() const { return stop_.load(std::memory_order_relaxed); }

  /// From any thread: run `change` (the request: new targets, a policy, a flag) under the mutex, then wake
  /// the loop.
  template <class Change>
  void post(Change&& change) {
    {
      const std::lock_guard lock(mutex_);
      change();
    }
    wake_.notify_all();
  }
  /// From the receive thread: queue a copy of `mad` and wake the loop; dropped when the inbox is full.
  void submit(std::span<const std::uint8_t, kMadSize> mad);
  /// On the manager's thread: wait until an answer is queued, `until` passes or stop() begins, then move the
  /// answers into `out` (GmpLink::wait).
  void take(std::chrono::steady_clock::time_point until, std::vector<GmpInbox::Mad>& out);

  /// The mutex guarding the manager's shared state and the inbox, for reads and waits of its own.
  std::mutex& mutex() const { return mutex_; }
  /// Notified by every post, answer and stop; the manager waits on it with mutex() held.
  std::condition_variable& wake() const { return wake_; }
  /// The answers; touched only with mutex() held.
  GmpInbox& inbox() { return inbox_; }

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable wake_;
  GmpInbox inbox_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace smd::mad
