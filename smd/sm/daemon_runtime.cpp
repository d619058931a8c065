// The operator's runtime controls (OpenSM's console `sweep on|off`, `loglevel`, `perfmgr`): what the
// control socket asks and SIGUSR1. Sweeps on/off and a light sweep go through the state machine's queue
// like every other request (a sweep in progress is never changed halfway); the log level and the PerfMgr's
// requests touch nothing the SM state machine reads, so they apply at once.
#include <spdlog/spdlog.h>

#include <utility>

#include "smd/sm/daemon.h"

namespace smd {

void Daemon::request_light_sweep(const std::string& reason) { post(SmEvent::kLightSweepRequested, reason); }

void Daemon::request_sweeping(bool on, const std::string& reason, const std::string& requester) {
  DaemonEvent e;
  e.kind = SmEvent::kSweepingChanged;
  e.sweeping_on = on;
  e.why = reason;
  e.requester = requester;
  post(std::move(e));
}

void Daemon::set_sweeping(const DaemonEvent& event) {
  const std::string by = event.requester.empty() ? "the control socket" : event.requester;
  if (!event.sweeping_on) {
    runtime_.sweeps_off(by, event.why, std::chrono::system_clock::now());
    cancel_light_sweep();
    spdlog::warn(
        "sweeps OFF by {}: {}; no light sweeps, and heavy sweeps for traps, light-sweep changes and re-sweeps are "
        "held back until `smctl sweeps on` (an explicit `smctl sweep` still runs)",
        by, event.why);
  } else {
    const std::optional<SweepsOffView> off = runtime_.sweeps_on();
    if (!off) {
      spdlog::info("sweeps on (by {}): they were not off", by);
    } else {
      const SweepsOffView& was = *off;
      spdlog::warn("sweeps ON by {} (turned OFF by {}: {}); {} heavy sweep(s) were held back", by, was.by, was.reason,
                   was.deferred);
      if (was.deferred > 0) {
        // What changed while sweeps were off is repaired now; the repair clock starts here.
        sweeps_.change_seen(event.at);
        schedule_heavy_sweep(
            event.at, "sweeps on: " + std::to_string(was.deferred) + " held back, the first: " + was.first_deferred);
      }
    }
    arm_light_sweep();
  }
  publish(nullptr);
}

bool Daemon::hold_back_sweep(const std::string& why) {
  if (!runtime_.hold_back(why)) return false;
  spdlog::info("sweeps off: heavy sweep held back ({} so far): {}", runtime_.sweeps_off_view()->deferred, why);
  publish(nullptr);
  return true;
}

void Daemon::set_log_level(const std::string& level, const std::string& requester) {
  apply_log_level(level, "smctl log-level" + (requester.empty() ? std::string() : " by " + requester));
}

void Daemon::apply_log_level(const std::string& level, const std::string& why) {
  const auto next = spdlog::level::from_str(level);
  const std::string was = runtime_.set_log_level(level);
  if (was == level) {
    spdlog::default_logger()->set_level(next);
    return;
  }
  // Said while the more verbose of the two levels holds, so the line shows whichever way the level moves.
  const bool quieter = next > spdlog::default_logger()->level();
  if (quieter) spdlog::info("log level {} -> {} ({})", was, level, why);
  spdlog::default_logger()->set_level(next);
  if (!quieter) spdlog::info("log level {} -> {} ({})", was, level, why);
}

Status Daemon::request_perfmgr(PerfMgrRequest what, const std::string& requester) {
  if (!health_.perf().running()) {
    return make_error(ErrorCode::kInvalidInput,
                      std::string("the PerfMgr is not running (") +
                          (policy_.perfmgr.enabled ? "this SM is not MASTER" : "perfmgr.enabled is false") + ")");
  }
  const std::string by = requester.empty() ? "" : " by " + requester;
  if (what == PerfMgrRequest::kPass) {
    spdlog::info("perfmgr: a counter pass requested{}", by);
    health_.perf().request_pass();
  } else {
    spdlog::info("perfmgr: clearing the stored counters requested{}", by);
    health_.perf().request_clear();
  }
  return Ok{};
}

void Daemon::reopen_log() {
  const std::optional<Status> st = runtime_.reopen_log();
  if (!st) return;
  if (st->ok()) {
    spdlog::info("SIGUSR1: log file reopened");
  } else {
    spdlog::error("SIGUSR1: cannot reopen the log file: {}", st->error().message);
  }
}

}  // namespace smd
