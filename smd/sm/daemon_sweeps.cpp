// Heavy-sweep scheduling (coalesced requests, one timer) and the heavy and light sweeps themselves, run
// as actions of the state machine: whatever their SmpBatch::wait() lets run meanwhile only queues events.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "smd/sm/daemon.h"
#include "smd/sm/notify.h"
#include "smd/sm/sweep_decision.h"

namespace smd {

namespace {

// Traps arrive in bursts (both ends of a cable, several cables of one switch): wait this long after the
// first before sweeping, so one heavy sweep repairs them all.
constexpr std::chrono::milliseconds kTrapDebounce{20};

}  // namespace

void Daemon::request_heavy_sweep(const std::string& reason) { post(SmEvent::kSweepRequested, reason); }

void Daemon::request_reroute(const std::string& reason) { post(SmEvent::kRerouteRequested, "reroute: " + reason); }

void Daemon::schedule_heavy_sweep(Clock::time_point due, const std::string& reason, SweepScope scope, Lid trap_lid) {
  if (events_.stopping() || local_.state == mad::SmState::kNotActive || local_.state == mad::SmState::kStandby) return;
  sweeps_.request(due, reason, scope, trap_lid);
}

void Daemon::cancel_heavy_sweeps() {
  sweeps_.cancel();
}

void Daemon::request_sweep_for(const DaemonEvent& event) {
  // Maintenance: what the fabric reports waits for `smctl sweeps on`; the operator's own requests and the
  // SM protocol's (handovers, a lost master) do not.
  const bool fabric_event = event.kind == SmEvent::kTrapLinkChange || event.kind == SmEvent::kTrapOther ||
                            event.kind == SmEvent::kLightSweepChange;
  if (fabric_event && hold_back_sweep(event.why)) return;
  switch (event.kind) {
    case SmEvent::kTrapLinkChange:
    case SmEvent::kTrapOther:
    case SmEvent::kLightSweepChange:
      sweeps_.change_seen(event.at);
      break;
    case SmEvent::kMasterLost: stop_awaiting(event.why); break;
    default: break;
  }
  switch (event.kind) {
    // A link change is read from the switches that report it (an incremental sweep); a capability
    // change, from the whole fabric. Both wait for the rest of the burst.
    case SmEvent::kTrapLinkChange:
      schedule_heavy_sweep(event.at + kTrapDebounce, event.why, SweepScope::kChanged, event.trap_lid);
      break;
    case SmEvent::kTrapOther: schedule_heavy_sweep(event.at + kTrapDebounce, event.why); break;
    default: schedule_heavy_sweep(event.at, event.why); break;
  }
}

void Daemon::run_heavy_sweep(const DaemonEvent& event) {
  if (!sweeps_.take_due(event.timer_gen)) return;  // re-armed or cancelled since it fired
  // A reloaded policy takes effect here, whole, for the daemon and the runner: this sweep runs under it
  // from its first SMP to its last, whatever SIGHUPs arrive meanwhile (they queue).
  adopt_staged_policy();
  const SweepScheduler::Started started = sweeps_.begin(Clock::now());
  const SweepOrder& order = started.order;
  const std::uint64_t n = started.number;
  const std::uint64_t generation = reloads_.generation();
  spdlog::info("heavy sweep {} under policy {} ({}): {} (state {})", n, generation, policy_.source, order.reason,
               mad::to_string(local_.state));
  election_.set_gate(SweepRunner::GateVerdict::kConfigure);
  auto gate = [this](const ObservedFabric& d) {
    election_.set_gate(election_gate(d));
    return election_.gate();
  };
  take_mcast_mailbox();                  // the sweep programs the groups the SA holds now
  runner_->set_drain_requests(drains_.parts());  // and routes around the drains recorded now
  health_.perf().set_sweeping(true);  // the PerfMgr and CC manager send nothing new until the sweep is over
  if (cc_) cc_->set_sweeping(true);
  auto s = std::make_shared<const SweepSummary>(runner_->heavy_sweep(gate, order.scope, order.trap_lids));
  health_.perf().set_sweeping(false);
  if (cc_) cc_->set_sweeping(false);
  const unsigned dead_port_sweeps = sweeps_.end(s->smps_sent > 0 && s->send_errors == s->smps_sent);
  record_.count_sweep(*s);
  // The drains read at start-up, against the first fabric discovered: the lines it cannot apply, once.
  if (const std::shared_ptr<const Topology> topo = runner_->topology()) {
    for (const std::string& w : drains_.check_loaded(*topo)) spdlog::warn("drains: {}", w);
  }
  // A port that sends nothing at all (its device went away; under ibsim, the simulator did) does not come
  // back by itself: after six heavy sweeps in a row that sent nothing (three quick re-sweeps, then one per
  // sweep_interval: about half a minute at the default), smd stops with an error so that the service
  // manager (Restart=on-failure) starts it again and it opens the port afresh.
  constexpr unsigned kDeadPortSweeps = 6;
  if (dead_port_sweeps == kDeadPortSweeps) {
    spdlog::error(
        "SM port: every SMP of the last {} heavy sweeps failed to send; stopping (exit status 1) so that "
        "the service manager starts smd again and it opens the port afresh",
        kDeadPortSweeps);
    events_.stop(1);
  }
  const std::string result = s->stopped_after_discovery ? "stopped at the election gate: " + sweeps_.gate_why()
                             : s->subnet_up             ? "subnet up"
                                                        : std::to_string(s->problems.size()) + " problems";
  spdlog::info("heavy sweep {} done under policy {} ({}): {}", n, generation, policy_.source, result);

  // The outcome is applied now, before anything that was queued while the sweep ran.
  DaemonEvent outcome;
  const bool waits = election_.gate() == SweepRunner::GateVerdict::kWait;
  outcome.kind = !s->stopped_after_discovery ? (s->subnet_up ? SmEvent::kSweepUp : SmEvent::kSweepNotUp)
                 : waits                     ? SmEvent::kSweepAwaitsHandover
                                             : SmEvent::kSweepFoundMaster;
  outcome.at = Clock::now();
  outcome.why = s->stopped_after_discovery ? (sweeps_.gate_why().empty() ? "another SM is master" : sweeps_.gate_why())
                                           : "no SM of higher precedence found";
  outcome.summary = std::move(s);
  dispatch(outcome);
}

void Daemon::after_gate_stopped_sweep(const SweepSummary& s) {
  publish(&s);
  notify::ready(std::string("STANDBY: master ") + format_guid(election_.watched().guid));
}

void Daemon::after_configuring_sweep(const SweepSummary& s) {
  if (!s.subnet_up) {
    ++record_.counters().failed_sweeps;
    spdlog::warn("heavy sweep left {} problems; first: {}", s.problems.size(),
                 s.problems.empty() ? "" : s.problems.front().to_string());
  }
  ++local_.act_count;
  // The gate found no other master in this sweep: a lower master we waited for is gone.
  stop_awaiting("this sweep found no other master");
  // A change seen while this sweep ran (its own links going Active send traps) is not what it repaired:
  // the next sweep answers that one.
  if (const std::optional<double> ms = sweeps_.repaired(Clock::now(), s.subnet_up)) {
    spdlog::info("repair: fabric consistent {:.1f} ms after the change was seen", *ms);
    ++record_.counters().repairs;
    record_.counters().repair_seconds_total += *ms / 1000.0;
    record_.note_repair(*ms, std::chrono::system_clock::now());
  }
  local_.lid = runner_->topology() ? runner_->lids().base_lid(runner_->topology()->sm_node, runner_->topology()->sm_port)
                                 : Lid{0};
  health_after_sweep(s);
  cc_after_sweep(s);
  publish(&s);
  const std::string line = std::string(mad::to_string(local_.state)) + ": " + std::to_string(s.switches) + " switches, " +
                           std::to_string(s.cas) + " CAs, " + std::to_string(s.links) + " links, engine " + s.engine +
                           (s.subnet_up ? ", subnet up" : ", " + std::to_string(s.problems.size()) + " problems");
  if (record_.counters().heavy_sweeps == 1) {
    notify::ready(line);
  } else {
    notify::status(line);
  }
  const unsigned failed_in_row = sweeps_.count_result(s.subnet_up);
  if (!s.subnet_up) {
    // What helps depends on the problems' codes (smd/sm/sweep_decision.h).
    const SweepDecision next =
        decide_after_failed_sweep(s.problems, failed_in_row, policy_.sm.max_resweeps, policy_.sm.sweep_interval_s);
    if (next.next == NextSweep::kWaitForOperator) spdlog::warn("no re-sweep can fix this: {}", next.reason);
    if (!hold_back_sweep("re-sweep: " + next.reason))
      schedule_heavy_sweep(Clock::now() + next.delay, next.reason, next.scope);
  }
  arm_light_sweep();
}

void Daemon::arm_light_sweep() {
  if (policy_.sm.sweep_interval_s == 0 || local_.state != mad::SmState::kMaster || runtime_.sweeps_off_view()) return;
  sweeps_.arm_light(std::chrono::seconds(policy_.sm.sweep_interval_s));
}

void Daemon::cancel_light_sweep() { sweeps_.cancel_light(); }

void Daemon::run_light_sweep(const DaemonEvent& event) {
  // A heavy sweep that ran since the timer fired re-armed it: the light sweep is due later. One the operator
  // asked for runs whatever the timer says.
  if (event.kind == SmEvent::kLightSweepDue && !sweeps_.light_current(event.timer_gen)) return;
  if (event.kind == SmEvent::kLightSweepRequested) spdlog::info("light sweep: {}", event.why);
  std::string reason;
  // Our port must still say IsSM, or no other SM can find this one (daemon_is_sm.cpp).
  if (ensure_is_sm("light sweep")) post(SmEvent::kIsSmRestored, "IsSM restored on our port");
  health_.perf().set_sweeping(true);
  if (cc_) cc_->set_sweeping(true);
  bool change = runner_->light_sweep_finds_change(reason);
  health_.perf().set_sweeping(false);
  if (cc_) cc_->set_sweeping(false);
  // The SMs the last election found: another MASTER, or a STANDBY that outranks us, needs a heavy sweep
  // (OpenSM's light sweep asks the same of every SM it knows).
  if (!change) change = other_sms_need_sweep(reason);
  ++record_.counters().light_sweeps;
  health_.tick();
  if (change) {
    DaemonEvent found;
    found.kind = SmEvent::kLightSweepChange;
    found.at = Clock::now();
    found.why = "light sweep: " + reason;
    dispatch(found);
  } else {
    arm_light_sweep();
  }
  publish(nullptr);
}

}  // namespace smd
