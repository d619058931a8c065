// PolicyReloads: the bookkeeping of SIGHUP reloads, owned apart from the Daemon. A file read by the
// handler gets the next generation number and is staged; the next heavy sweep takes it (or STANDBY and
// NOTACTIVE take it at once), and its generation and restart-only differences become the ones in effect.
// A refused file changes nothing of that: its error is kept, with the time of the first refusal in a row,
// until a later file is accepted. `smctl status` and the metrics read all of it through the snapshot.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "smd/sm/daemon_event.h"

namespace smd {

class PolicyReloads {
 public:
  /// `config_path`: the file SIGHUP re-reads ("" = the defaults only: nothing to reload).
  explicit PolicyReloads(std::string config_path = {}) : config_path_(std::move(config_path)) {}
  const std::string& config_path() const { return config_path_; }

  /// The generation a newly read file gets: 2, 3, ... (1 is the start-up policy). Counts files read even
  /// while an older one is still staged, so each reload in the log has its own number.
  std::uint64_t next_generation() { return ++last_generation_; }

  /// A file was refused with `error` at `now`: kept for status; `since` stays at the first refusal in a row.
  void refuse(std::string error, std::chrono::system_clock::time_point now);
  /// A file was accepted: a refusal shown until now is over.
  void accept() { refused_.clear(); }

  /// Wait for the next heavy sweep with `reloaded` (a later one replaces an earlier one still staged).
  void stage(std::shared_ptr<const ReloadedPolicy> reloaded) { staged_ = std::move(reloaded); }
  /// The staged policy, null when none.
  const ReloadedPolicy* staged() const { return staged_.get(); }
  /// Take the staged policy (null when none): its generation and restart list become the ones in effect.
  std::shared_ptr<const ReloadedPolicy> take_staged();

  /// The generation in effect (1 until a reload takes effect).
  std::uint64_t generation() const { return generation_; }
  /// What the policy in effect asked for that only a restart applies.
  const std::vector<RestartNeeded>& needs_restart() const { return needs_restart_; }
  /// The refused file's error while no later file was accepted, "" otherwise.
  const std::string& refused() const { return refused_; }
  /// When the current run of refusals began (meaningful while refused() is not empty).
  std::chrono::system_clock::time_point refused_since() const { return refused_since_; }
  /// Files refused since the daemon started.
  std::uint64_t refused_total() const { return refused_total_; }

 private:
  std::string config_path_;
  std::uint64_t generation_ = 1;
  std::uint64_t last_generation_ = 1;  ///< the newest generation read (staged or in effect)
  std::vector<RestartNeeded> needs_restart_;
  std::shared_ptr<const ReloadedPolicy> staged_;
  std::string refused_;
  std::chrono::system_clock::time_point refused_since_{};
  std::uint64_t refused_total_ = 0;
};

}  // namespace smd
