// PortHealth: the rules that mark a port unhealthy (issue 19), from the PerfMgr's per-interval counter
// deltas (too many errors in one interval) and from sweeps (too many link-down events in a window), and
// that clear it again: by the operator (smctl port clear) or after a quiet period without errors or flaps.
// A mark is only a request for isolation; routing/isolation/cable_isolation.h decides whether the cable
// can go. Pure: no I/O, times are passed in (steady_clock), not thread-safe (one owner).
#pragma once

#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "smd/state/port_counters_view.h"

namespace smd {

/// The policy's health thresholds (perfmgr: section).
struct HealthThresholds {
  /// Per counter (PortCounter order): 0 = no threshold; crossing = delta > max in one interval.
  CounterArray max_per_interval{};
  unsigned flap_count = 0;                ///< 0 = flaps never mark a port; else >= flap_count link-down events ...
  std::chrono::seconds flap_window{600};  ///< ... within this window
  std::chrono::seconds quiet_period{0};   ///< 0 = only an operator clears; else cleared after this long clean
  /// The PerfMgr interval the thresholds are per (seconds; 0 = take every delta as one interval's). A delta
  /// read over a longer time (the PerfMgr was off, paused, or the port did not answer for a few passes) is
  /// judged at the same rate: it may reach max * elapsed / interval.
  double interval_s = 0;
};

/// A port newly marked, with why.
struct HealthMark {
  PortKey key;
  std::string reason;  ///< "SymbolErrorCounter +57 in 10 s (threshold 10 per 10 s)" or "5 link flaps in 600 s"
};

class PortHealth {
 public:
  explicit PortHealth(HealthThresholds t);
  /// A policy reload: new thresholds apply from the next record_*; marks and flap history stay.
  void set_thresholds(HealthThresholds t);

  /// One interval's deltas of one port (and the interval's length in seconds, for the message). Returns the
  /// mark when this call marked the port unhealthy: the first counter over its threshold in PortCounter order
  /// is named in the reason ("SymbolErrorCounter +57 in 10 s (threshold 10 per 10 s)"). Any error-counter
  /// (is_error_counter) delta > 0 on an already unhealthy port restarts its quiet period.
  std::optional<HealthMark> record_errors(const PortKey& key, const CounterArray& delta, double elapsed_s,
                                          std::chrono::steady_clock::time_point now);

  /// The port's link went down (a sweep found its cable gone). Flaps flap_window or older are dropped; the
  /// port is marked when the count reaches flap_count ("5 link flaps in 600 s"). A flap on an unhealthy port
  /// restarts its quiet period.
  std::optional<HealthMark> record_flap(const PortKey& key, std::chrono::steady_clock::time_point now);

  /// Operator clear (smctl port clear): unmarks and forgets its flap history. False when it was not marked.
  bool clear(const PortKey& key);

  /// Ports clean (no error, no flap) for quiet_period: unmarked and returned, sorted (none when quiet_period
  /// is 0). Their flap history stays: flaps still inside the window count towards the next mark.
  std::vector<PortKey> expire_quiet(std::chrono::steady_clock::time_point now);

  /// One marked port.
  struct Mark {
    std::string reason;
    std::chrono::steady_clock::time_point since;     ///< when it was marked
    std::chrono::steady_clock::time_point last_bad;  ///< last error or flap: the quiet period runs from here
    unsigned flaps;                                  ///< flaps in the window when last counted
  };
  const std::map<PortKey, Mark>& marked() const { return marked_; }

  /// Link-down events of `key` in the flap window ending at `now`.
  unsigned flaps(const PortKey& key, std::chrono::steady_clock::time_point now) const;

  /// Forget the flap history of ports not in `present` (unsorted is fine); never touches marks (a marked port
  /// that left stays marked until cleared or quiet).
  void retain(const std::vector<PortKey>& present);

 private:
  void drop_old_flaps(std::deque<std::chrono::steady_clock::time_point>& q,
                      std::chrono::steady_clock::time_point now) const;

  HealthThresholds t_;
  std::map<PortKey, Mark> marked_;
  std::map<PortKey, std::deque<std::chrono::steady_clock::time_point>> flaps_;
};

}  // namespace smd
