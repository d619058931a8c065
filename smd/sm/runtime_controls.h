// RuntimeControls: what the operator switched at run time and the daemon must remember, owned apart
// from the Daemon: sweeps off (who, why, since when, how many heavy sweeps were held back), the running
// log level's name, and how SIGUSR1 reopens the log file. Sweeps off is not kept across a restart
// (OpenSM's `sweep off` is not either): a restarted daemon sweeps, so it never comes up unable to repair
// a fabric nobody remembers freezing.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "routing/base/status.h"
#include "smd/state/fabric_snapshot.h"

namespace smd {

class RuntimeControls {
 public:
  /// `log_level`: the level the daemon starts with (log.level or --log-level).
  explicit RuntimeControls(std::string log_level) : log_level_(std::move(log_level)) {}

  /// Sweeps off by `by` for `reason` at `now`. Off again while off keeps the start and the held-back
  /// count, and takes the new requester and reason.
  void sweeps_off(const std::string& by, const std::string& reason, std::chrono::system_clock::time_point now);
  /// Sweeps on: what the off period was (nullopt when sweeps were not off).
  std::optional<SweepsOffView> sweeps_on();
  /// While sweeps are off: count the heavy sweep `why` would have asked for (the first one's reason is
  /// kept) and return true. False, counting nothing, while sweeps run.
  bool hold_back(const std::string& why);
  /// Set while sweeps are off (what status shows).
  const std::optional<SweepsOffView>& sweeps_off_view() const { return sweeps_off_; }

  /// The running log level's name; set_log_level returns the one it replaces.
  const std::string& log_level() const { return log_level_; }
  std::string set_log_level(std::string level) { return std::exchange(log_level_, std::move(level)); }

  /// How SIGUSR1 reopens the log file (set by main() before the loop).
  void set_log_reopen(std::function<Status()> reopen) { reopen_log_ = std::move(reopen); }
  /// Reopen it: nullopt when nothing was set, else what the reopen returned.
  std::optional<Status> reopen_log() const;

 private:
  std::optional<SweepsOffView> sweeps_off_;
  std::string log_level_;
  std::function<Status()> reopen_log_;
};

}  // namespace smd
