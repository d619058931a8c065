// The event queue and the executor of the state machine's table (smd/sm/sm_fsm.h): handlers post, the loop
// applies; a transition enters its next state first, then performs its action.
#include <spdlog/spdlog.h>

#include <cassert>
#include <utility>
#include <vector>

#include "smd/sm/daemon.h"

namespace smd {

void Daemon::post(DaemonEvent event) { events_.post(std::move(event)); }

void Daemon::post(SmEvent kind, std::string why) {
  DaemonEvent event;
  event.kind = kind;
  event.why = std::move(why);
  post(std::move(event));
}

// The loop is the only caller, and an action only posts, so this never nests.
void Daemon::apply_events() {
  events_.apply([this](const DaemonEvent& event) { dispatch(event); });
}

void Daemon::dispatch(const DaemonEvent& event) {
  const SmTransition t = sm_transition(local_.state, event.kind);
  spdlog::debug("event {} in {}: {} -> {}", to_string(event.kind), mad::to_string(local_.state), to_string(t.action),
                mad::to_string(t.next));
  enter_state(t.next, event.why);
  perform(t.action, event);
}

void Daemon::enter_state(mad::SmState next, const std::string& why) {
  if (next == local_.state) return;
  spdlog::info("SM state {} -> {}: {}", mad::to_string(local_.state), mad::to_string(next), why);
  const bool was_master = local_.state == mad::SmState::kMaster;
  local_.state = next;
  (void)election_.stop_awaiting();
  switch (next) {
    case mad::SmState::kStandby:
      // A standby only polls the master (IBA 14.4.1.1): it neither sweeps nor keeps sweep requests.
      cancel_light_sweep();
      cancel_heavy_sweeps();
      election_.poll_answered();
      arm_poll();
      break;
    case mad::SmState::kNotActive:
      cancel_light_sweep();
      cancel_heavy_sweeps();
      cancel_poll();
      break;
    case mad::SmState::kDiscovering:
    case mad::SmState::kMaster: cancel_poll(); break;
  }
  // Another SM programs the fabric now: what the switches hold is no longer ours to know.
  if (was_master && runner_) runner_->forget_programming();
  update_perfmgr();  // only a master reads counters
  publish(nullptr);
}

void Daemon::perform(SmAction action, const DaemonEvent& event) {
  switch (action) {
    case SmAction::kNone: return;
    case SmAction::kRunHeavySweep: run_heavy_sweep(event); return;
    case SmAction::kRunLightSweep: run_light_sweep(event); return;
    case SmAction::kPollMaster: poll_watched(event); return;
    case SmAction::kConfigured: after_configuring_sweep(*event.summary); return;
    case SmAction::kFollowMaster: after_gate_stopped_sweep(*event.summary); return;
    case SmAction::kTakeHandover:
      ++record_.counters().handovers_received;
      election_.watched() = {};
      schedule_heavy_sweep(event.at, event.why);
      return;
    case SmAction::kAcceptHandover:
      // A lower master handed its part of the subnet over (two masters): the whole fabric is ours now.
      ++record_.counters().handovers_received;
      stop_awaiting("it handed over");
      schedule_heavy_sweep(event.at, event.why);
      return;
    case SmAction::kAwaitHandover:
      publish(event.summary.get());
      await_handover();
      return;
    case SmAction::kNudgeMaster: nudge_watched(); return;
    case SmAction::kScheduleMcast: mcast_.schedule_pass(); return;
    case SmAction::kRunMcastPass: run_mcast_pass(event); return;
    case SmAction::kApplyHealth: health_.apply_passes(); return;
    case SmAction::kClearPort: health_.clear_port(event.port, event.why); return;
    case SmAction::kSetSweeping: set_sweeping(event); return;
    case SmAction::kFollowSender:
      if (auto sm = reach_sm(event.peer_guid, event.peer_lid)) {
        election_.watched() = *sm;
      } else {
        spdlog::warn("told to stand by by {}, which this SM cannot reach: it takes over after {} polls",
                     format_guid(event.peer_guid), policy_.sm.poll_retries);
        election_.watched() = {};
        election_.watched().guid = event.peer_guid;
      }
      return;
    case SmAction::kTakeOver:
      sweeps_.restart_repair_clock(event.at);
      schedule_heavy_sweep(event.at, "takeover");
      return;
    case SmAction::kRequestSweep: request_sweep_for(event); return;
    case SmAction::kRequestReroute:
      // A reroute programs a fresh engine run on the topology the next heavy sweep confirms (re-balancing
      // what minimal repairs left); the programmer still writes only the blocks that differ.
      runner_->request_full_reroute();
      request_sweep_for(event);
      return;
    case SmAction::kStagePolicy:
      reloads_.stage(event.policy);
      spdlog::info("policy {} staged: it takes effect at the start of the next heavy sweep", event.policy->generation);
      schedule_heavy_sweep(event.at, event.why);
      return;
    case SmAction::kAdoptPolicy:
      reloads_.stage(event.policy);
      adopt_staged_policy();
      publish(nullptr);
      return;
    case SmAction::kStop: events_.stop(); return;
  }
}

mad::SmState Daemon::projected_state() const {
  return project_state(local_.state, events_.kinds());
}

}  // namespace smd
