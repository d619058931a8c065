// The SM state machine of IBA vol. 1, 14.4.1 as one table, in the spirit of FRR's bgp_fsm:
// kTransitions[state][event] = {action, next_state}. The states are the SMInfo states (NOTACTIVE,
// DISCOVERING, STANDBY, MASTER); the events are smd/sm/sm_event.h. The daemon looks a transition up,
// enters the next state (stopping or starting what that state runs: light sweeps, polling the master) and
// then performs the action. Nothing here does I/O, so the table is tested cell by cell (sm_fsm_test.cpp).
//
// Why a table: every (state, event) pair has an explicit answer, including "nothing" (kNone), so a new
// event or state shows at once which cells it needs; and because events are applied only between sweeps,
// the state never changes while a sweep runs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "mad/codec/sm_info.h"
#include "smd/sm/sm_event.h"

namespace smd {

/// What the daemon does for an event, after entering the transition's next state.
enum class SmAction : std::uint8_t {
  kNone,            ///< nothing in this state (the event is dropped, or only the state changes)
  kRunHeavySweep,   ///< hand a staged policy to the runner, run the pending heavy sweep, apply its outcome
  kRunLightSweep,   ///< one SwitchInfo per switch; a change is applied as kLightSweepChange at once
  kPollMaster,      ///< send the polled SM (our master, or the master we await) an SMInfo Get carrying ours
  kConfigured,      ///< a sweep configured the fabric (up or not): count, publish, choose the next sweep
  kFollowMaster,    ///< the sweep stopped at the election gate: publish that we stand by
  kTakeHandover,    ///< the master handed the subnet over: forget it, sweep at once
  kTakeOver,        ///< the master went silent: sweep at once (the repair clock starts)
  kAcceptHandover,  ///< MASTER handed a lower master's part: stop waiting for it, sweep at once
  kAwaitHandover,   ///< the gate found a MASTER below us: poll it (now, then every sm.poll_interval)
  kNudgeMaster,     ///< the polled MASTER is below us: send it trap 144 (SM priority change) to hand over
  kFollowSender,    ///< NOTACTIVE told to stand by: poll the SM that sent the STANDBY
  kRequestSweep,    ///< record a heavy-sweep request (coalesced with one already pending)
  kRequestReroute,  ///< the same, and that sweep programs a fresh engine run
  kStagePolicy,     ///< keep the reloaded policy for the start of the next heavy sweep, and ask for one
  kAdoptPolicy,     ///< no sweep runs in this state: the reloaded policy takes effect now
  kScheduleMcast,   ///< arm the multicast timer (joins and leaves arrive in bursts: one pass takes them all)
  kRunMcastPass,    ///< rebuild the trees of the groups that changed, verify, program their MFT blocks
  kApplyHealth,     ///< fold a counter pass into the health rules; a changed unhealthy set asks for a sweep
  kClearPort,       ///< drop a port's unhealthy mark; a cable isolated until now asks for a sweep
  kSetSweeping,     ///< maintenance off/on: hold back (or release) light sweeps and trap-driven heavy sweeps
  kStop,            ///< leave the loop
};

/// One cell of the table.
struct SmTransition {
  SmAction action = SmAction::kNone;
  mad::SmState next = mad::SmState::kNotActive;

  friend bool operator==(const SmTransition&, const SmTransition&) = default;
};

/// The table cell for `event` in `state`. Pure and total: every pair has an answer.
SmTransition sm_transition(mad::SmState state, SmEvent event);

/// The state this SM will be in once `queued` (in order) has been applied from `state`. An SMInfo Set
/// answered while events wait is judged against this state, and its GetResp carries the state it leads to.
mad::SmState project_state(mad::SmState state, std::span<const SmEvent> queued);

/// The event an obeyed SMInfo Set with attribute modifier `mod` (sminfo_mod::*) records; nullopt for
/// unknown modifiers.
std::optional<SmEvent> sminfo_set_event(std::uint32_t mod);

/// Short stable name for logs: "run-heavy-sweep", "stage-policy", ...
const char* to_string(SmAction action);

}  // namespace smd
