// Signals. SIGHUP reads and validates the policy file in the handler (a refused file changes nothing)
// and queues it; the state machine stages it, and it takes effect whole at the start of the next heavy
// sweep (at once in STANDBY and NOTACTIVE, which run no sweeps). Restart-only keys keep their running
// values (smd/sm/policy_reload.h). SIGTERM and SIGINT queue a stop; SIGUSR1 reopens the log file.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <string_view>
#include <utility>

#include "config/policy_loader.h"
#include "config/policy_overrides.h"
#include "config/policy_summary.h"
#include "smd/sm/daemon.h"
#include "smd/sm/instance_policy.h"
#include "smd/sm/notify.h"
#include "smd/sm/policy_reload.h"

namespace smd {

bool Daemon::on_signal(int signo) {
  if (signo == SIGUSR1) {  // logrotate moved the file: write to a new one at the configured path
    reopen_log();
    return true;
  }
  if (signo != SIGHUP) {
    spdlog::info("signal {}: stopping", signo);
    post(SmEvent::kStop, "signal " + std::to_string(signo));
    return false;
  }
  notify::reloading();
  const std::uint64_t refused_before = reloads_.refused_total();
  if (auto reloaded = read_reloaded_policy()) {
    DaemonEvent event;
    event.kind = SmEvent::kPolicyReloaded;
    event.why = "SIGHUP";
    event.policy = std::move(reloaded);
    post(std::move(event));
    notify::ready("policy reloaded");
    publish(nullptr);  // a refusal shown until now is over
  } else if (reloads_.refused_total() != refused_before) {
    // A refused file changes nothing, so there is nothing to sweep for; status and metrics say so.
    notify::ready("policy reload refused, running policy kept");
    publish(nullptr);
  } else {
    // No policy file (started without --config): SIGHUP asks for a heavy sweep, as OpenSM's does.
    post(SmEvent::kSweepRequested, "SIGHUP");
    notify::ready("heavy sweep requested");
  }
  return true;
}

std::shared_ptr<const ReloadedPolicy> Daemon::read_reloaded_policy() {
  if (reloads_.config_path().empty()) return nullptr;
  auto perms = check_policy_file_permissions(reloads_.config_path());
  auto loaded = perms.ok() ? load_policy_file(reloads_.config_path()) : Result<Policy>(perms.error());
  if (!loaded.ok()) {
    // One log line per error of the file (the loader lists them all, one a line).
    const std::string_view all = loaded.error().message;
    for (std::size_t begin = 0; begin <= all.size();) {
      const std::size_t end = std::min(all.find('\n', begin), all.size());
      spdlog::error("reload refused, running policy kept: {}", all.substr(begin, end - begin));
      begin = end + 1;
    }
    reloads_.refuse(loaded.error().message, std::chrono::system_clock::now());
    return nullptr;
  }
  reloads_.accept();
  for (const std::string& w : loaded.value().warnings) spdlog::warn("SIGHUP: policy: {}", w);
  // The file says nothing of --instance, --metrics-listen or the overrides (-p, -g, -R): apply them again,
  // or the instance's paths would read as changed restart keys and `smd -p 10` would lose its priority.
  apply_instance(loaded.value(), policy_.instance);
  apply_overrides(loaded.value(), policy_.overrides);
  auto reloaded = std::make_shared<ReloadedPolicy>();
  // The restart-only keys of the running policy never change, so comparing with policy_ is right even
  // while an older reload is still staged.
  reloaded->needs_restart = keys_needing_restart(policy_, loaded.value());
  reloaded->policy = keep_restart_keys(policy_, std::move(loaded.value()));
  reloaded->generation = reloads_.next_generation();
  if (sweeps_.running() != 0) {
    spdlog::info("SIGHUP: policy {} read from {} while heavy sweep {} runs; queued", reloaded->generation, reloads_.config_path(),
                 sweeps_.running());
  } else {
    spdlog::info("SIGHUP: policy {} read from {}", reloaded->generation, reloads_.config_path());
  }
  for (const RestartNeeded& k : reloaded->needs_restart) {
    spdlog::warn("needs restart: {} (running {}, file {})", k.key, k.running, k.file);
  }
  return reloaded;
}

void Daemon::adopt_staged_policy() {
  const std::shared_ptr<const ReloadedPolicy> staged = reloads_.take_staged();
  if (!staged) return;
  policy_ = staged->policy;
  runner_->set_policy(policy_);
  // The SA re-applies the policy's pre-created groups when this pointer changes.
  sa_publisher_.set_partition_policy(policy_.partitions);
  spdlog::info("policy {} takes effect ({}): {}", reloads_.generation(), policy_.source, summarize_policy(policy_));
  // Each accepted reload sets the level again: the file's log.level, or --log-level when smd was started with
  // it (an override, applied above); an earlier `smctl log-level` lasts until then.
  apply_log_level(policy_.log.level, "policy " + std::to_string(reloads_.generation()));
  health_policy_changed();
}

}  // namespace smd
