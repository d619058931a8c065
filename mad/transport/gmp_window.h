// GmpWindow: the request side of a GMP manager that runs on its own thread (the PerfMgr's PMA reads, the
// congestion-control manager's CC Gets and Sets). A GMP is answered by its TransactionID (IBA 13.4.6.4), may be
// lost on an unreliable datagram QP, and a manager must bound what it has in flight so that it does not swamp
// the agents it reads (OpenSM's perfmgr_max_outstanding_queries). So every such manager needs the same
// machinery: a window of outstanding requests keyed by TID, a timer per attempt, re-sends, late answers
// dropped, nothing new sent while the SM sweeps. It lives here once; what a request carries, how it is turned
// into a MAD and what an answer means stay with the manager.
//
// Threading: one GmpWindow belongs to one thread; every hook is called on it. Cost: O(log n) per answer and
// O(n) per wake-up (the next deadline), n <= max_outstanding.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <utility>
#include <vector>

#include "mad/codec/smp.h"

namespace smd::mad {

/// The window's bounds, read anew before each round (a reload applies at once). `timeout` is per attempt;
/// a request is sent at most 1 + `retries` times.
struct GmpLimits {
  std::size_t max_outstanding = 1;
  std::chrono::milliseconds timeout{200};
  unsigned retries = 2;
};

/// Why a request was given up without an answer.
enum class GmpGiveUp {
  kSendFailed,  ///< the transport refused it (the send returned -errno)
  kNoAnswer,    ///< its last attempt timed out
};

/// The answers the receive thread hands a manager's thread: a bounded queue guarded by the manager's own
/// mutex (which guards its other shared state too) and waited on with the manager's condition variable (which
/// its other requests, a stop or a new pass, also notify).
class GmpInbox {
 public:
  using Mad = std::array<std::uint8_t, kMadSize>;

  /// At most `limit` answers wait; more than could ever be outstanding are stale or not ours.
  explicit GmpInbox(std::size_t limit) : limit_(limit) {}
  /// Queue a copy of `mad`; the caller holds the manager's mutex. False when full (dropped).
  bool push(std::span<const std::uint8_t, kMadSize> mad) {
    if (queue_.size() >= limit_) return false;
    Mad copy{};
    std::copy(mad.begin(), mad.end(), copy.begin());
    queue_.push_back(copy);
    return true;
  }
  /// With `lock` held on the manager's mutex: wait on `wake` until an answer is queued, `until` passes or
  /// `stop()` holds, then move what is queued into `out`.
  template <class Stop>
  void take(std::unique_lock<std::mutex>& lock, std::condition_variable& wake, std::chrono::steady_clock::time_point until,
            const Stop& stop, std::vector<Mad>& out) {
    wake.wait_until(lock, until, [&] { return stop() || !queue_.empty(); });
    out.assign(queue_.begin(), queue_.end());
    queue_.clear();
  }
  /// Drop what is queued (answers to an abandoned pass); the caller holds the manager's mutex.
  void clear() { queue_.clear(); }

 private:
  std::deque<Mad> queue_;
  std::size_t limit_;
};

/// The manager's side of a window: its transport, its inbox and its flags. Called on the window's thread.
template <class Request>
class GmpLink {
 public:
  using Clock = std::chrono::steady_clock;
  using Mad = std::array<std::uint8_t, kMadSize>;

  virtual ~GmpLink() = default;
  /// True: stop now; what is queued or in flight is dropped.
  virtual bool stopping() const = 0;
  /// True while the SM sweeps: nothing new is sent (answers to what is in flight are still taken).
  virtual bool paused() const = 0;
  /// The bounds for the next round.
  virtual GmpLimits limits() const = 0;
  /// Encode `r` with TransactionID `tid` and send it. Returns 0 or -errno.
  virtual int send(const Request& r, std::uint32_t tid) = 0;
  /// Block until an answer arrives, `until` passes or stopping() turns true; move the answers received into
  /// `answers` (which arrives empty).
  virtual void wait(Clock::time_point until, std::vector<Mad>& answers) = 0;
  /// The TID (low 32 bits) of `mad` when it is a response of this manager's class, nullopt otherwise.
  virtual std::optional<std::uint32_t> answer_tid(const Mad& mad) const = 0;
  /// `ms` were spent waiting for a sweep to end with nothing in flight (for the pass statistics).
  virtual void paused_for(double ms) { (void)ms; }
};

/// What one drain does with the outcome of each request. Both run on the window's thread, and may queue
/// further requests on the window (a redirect re-sends at once with push_front).
template <class Request>
struct GmpOutcome {
  std::function<void(const Request&, const typename GmpLink<Request>::Mad&)> answered;
  std::function<void(const Request&, GmpGiveUp)> gave_up;
};

template <class Request>
class GmpWindow {
 public:
  using Clock = std::chrono::steady_clock;
  using Mad = typename GmpLink<Request>::Mad;

  /// How long the thread sleeps between looks while a sweep holds it off with nothing in flight.
  static constexpr auto kPausePoll = std::chrono::milliseconds(5);
  /// The longest wait for answers: the link's flags are looked at again at least this often.
  static constexpr auto kLongestWait = std::chrono::milliseconds(50);

  explicit GmpWindow(GmpLink<Request>& link) : link_(link) {}

  /// Queue `r` behind what is queued.
  void push_back(Request r) { work_.push_back({std::move(r), 0}); }
  /// Queue `r` ahead of what is queued, with a fresh count of attempts (a request sent somewhere new).
  void push_front(Request r) { work_.push_front({std::move(r), 0}); }

  /// Send, take answers and time out until every queued request is answered or given up, each outcome
  /// reported once through `outcome`. Returns false when stopped (the queue and the window are then empty).
  bool drain(const GmpOutcome<Request>& outcome) {
    std::vector<Mad> answers;
    while ((!work_.empty() || !outstanding_.empty()) && !link_.stopping()) {
      const GmpLimits limits = link_.limits();
      if (link_.paused() && outstanding_.empty()) {
        const auto t0 = Clock::now();
        std::this_thread::sleep_for(kPausePoll);
        link_.paused_for(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        continue;
      }
      fill(limits, outcome);
      answers.clear();
      link_.wait(next_deadline(), answers);
      for (const Mad& mad : answers) take(mad, outcome);
      expire(limits, outcome);
    }
    if (!link_.stopping()) return true;
    work_.clear();
    outstanding_.clear();
    return false;
  }

  std::size_t outstanding() const { return outstanding_.size(); }

 private:
  struct Entry {
    Request request;
    unsigned attempts = 0;
    Clock::time_point deadline{};
  };

  // Send queued requests while the window has room and no sweep runs.
  void fill(const GmpLimits& limits, const GmpOutcome<Request>& outcome) {
    while (!link_.paused() && outstanding_.size() < limits.max_outstanding && !work_.empty()) {
      Entry e = std::move(work_.front());
      work_.pop_front();
      const std::uint32_t tid = next_tid_++;
      if (next_tid_ == 0) next_tid_ = 1;  // TID 0 is never used: an all-zero MAD answers nothing
      ++e.attempts;
      e.deadline = Clock::now() + limits.timeout;
      if (link_.send(e.request, tid) != 0) {
        outcome.gave_up(e.request, GmpGiveUp::kSendFailed);
        continue;
      }
      outstanding_.emplace(tid, std::move(e));
    }
  }

  Clock::time_point next_deadline() const {
    auto until = Clock::now() + kLongestWait;
    for (const auto& [tid, e] : outstanding_) until = std::min(until, e.deadline);
    return until;
  }

  // An answer to a request still in the window; a late one (given up or re-sent since) is dropped.
  void take(const Mad& mad, const GmpOutcome<Request>& outcome) {
    const std::optional<std::uint32_t> tid = link_.answer_tid(mad);
    if (!tid) return;
    const auto it = outstanding_.find(*tid);
    if (it == outstanding_.end()) return;
    const Request r = std::move(it->second.request);
    outstanding_.erase(it);
    outcome.answered(r, mad);
  }

  // Requests past their deadline: re-sent first (ahead of the queue) while they have retries left.
  void expire(const GmpLimits& limits, const GmpOutcome<Request>& outcome) {
    const auto now = Clock::now();
    for (auto it = outstanding_.begin(); it != outstanding_.end();) {
      if (it->second.deadline > now) {
        ++it;
        continue;
      }
      Entry e = std::move(it->second);
      it = outstanding_.erase(it);
      if (e.attempts <= limits.retries) {
        work_.push_front(std::move(e));
      } else {
        outcome.gave_up(e.request, GmpGiveUp::kNoAnswer);
      }
    }
  }

  GmpLink<Request>& link_;
  std::deque<Entry> work_;
  std::map<std::uint32_t, Entry> outstanding_;  ///< by TID
  std::uint32_t next_tid_ = 1;
};

}  // namespace smd::mad
