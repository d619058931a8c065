#include "smd/sm/sm_fsm.h"

#include <array>

namespace smd {

namespace {

using mad::SmState;
using A = SmAction;

constexpr SmState kNa = SmState::kNotActive;
constexpr SmState kDi = SmState::kDiscovering;
constexpr SmState kSb = SmState::kStandby;
constexpr SmState kMa = SmState::kMaster;

constexpr std::size_t kStateCount = 4;
using Row = std::array<SmTransition, kSmEventCount>;

// One row per state (mad::SmState order), one cell per event (SmEvent order).
//
// Cells that cannot happen say kNone and keep the state: a sweep's outcome only arrives in the states
// that run sweeps (DISCOVERING, MASTER), and sminfo_set_refusal() (smd/sm/sminfo_access.h) lets no Set
// through that its row does not take: HANDOVER to DISCOVERING, STANDBY or MASTER; ACKNOWLEDGE to STANDBY
// or MASTER; DISABLE to STANDBY; STANDBY to NOTACTIVE; DISCOVER to STANDBY or NOTACTIVE.
// clang-format off
constexpr std::array<Row, kStateCount> kTransitions = {{
    // NOTACTIVE (IBA 14.4.1): sweeps nothing, answers SMInfo, waits for a STANDBY (or a DISCOVER).
    {{
        {A::kNone, kNa},            // SweepUp
        {A::kNone, kNa},            // SweepNotUp
        {A::kNone, kNa},            // SweepFoundMaster
        {A::kNone, kNa},            // SweepAwaitsHandover
        {A::kNone, kNa},            // SetHandover
        {A::kNone, kNa},            // SetDisable
        {A::kFollowSender, kSb},    // SetStandby
        {A::kRequestSweep, kDi},    // SetDiscover
        {A::kNone, kNa},            // SetAcknowledge
        {A::kNone, kNa},            // MasterLost
        {A::kNone, kNa},            // PolledMasterBelowUs
        {A::kNone, kNa},            // PolledByHigherStandby
        {A::kNone, kNa},            // PolledByHigherMaster
        {A::kNone, kNa},            // TrapLinkChange
        {A::kNone, kNa},            // TrapOther
        {A::kNone, kNa},            // LightSweepChange
        {A::kNone, kNa},            // IsSmRestored
        {A::kAdoptPolicy, kNa},     // PolicyReloaded
        {A::kNone, kNa},            // SweepRequested
        {A::kNone, kNa},            // RerouteRequested
        {A::kNone, kNa},            // LightSweepRequested
        {A::kSetSweeping, kNa},     // SweepingChanged
        {A::kNone, kNa},            // HeavySweepDue
        {A::kNone, kNa},            // LightSweepDue
        {A::kNone, kNa},            // PollDue
        {A::kNone, kNa},            // GroupsChanged
        {A::kNone, kNa},            // McastDue
        {A::kNone, kNa},            // CountersRead
        {A::kClearPort, kNa},       // PortClearRequested
        {A::kStop, kNa},            // Stop
    }},
    // DISCOVERING: the first sweep decides between MASTER and STANDBY (IBA 14.4.1.1).
    {{
        {A::kConfigured, kMa},      // SweepUp
        {A::kConfigured, kMa},      // SweepNotUp
        {A::kFollowMaster, kSb},    // SweepFoundMaster
        {A::kNone, kDi},            // SweepAwaitsHandover
        {A::kTakeHandover, kMa},    // SetHandover
        {A::kNone, kDi},            // SetDisable
        {A::kNone, kDi},            // SetStandby
        {A::kNone, kDi},            // SetDiscover
        {A::kNone, kDi},            // SetAcknowledge
        {A::kNone, kDi},            // MasterLost
        {A::kNone, kDi},            // PolledMasterBelowUs
        {A::kNone, kDi},            // PolledByHigherStandby
        {A::kNone, kDi},            // PolledByHigherMaster
        {A::kRequestSweep, kDi},    // TrapLinkChange
        {A::kRequestSweep, kDi},    // TrapOther
        {A::kRequestSweep, kDi},    // LightSweepChange
        {A::kNone, kDi},            // IsSmRestored
        {A::kStagePolicy, kDi},     // PolicyReloaded
        {A::kRequestSweep, kDi},    // SweepRequested
        {A::kRequestReroute, kDi},  // RerouteRequested
        {A::kNone, kDi},            // LightSweepRequested
        {A::kSetSweeping, kDi},     // SweepingChanged
        {A::kRunHeavySweep, kDi},   // HeavySweepDue
        {A::kNone, kDi},            // LightSweepDue
        {A::kNone, kDi},            // PollDue
        {A::kNone, kDi},            // GroupsChanged
        {A::kNone, kDi},            // McastDue
        {A::kNone, kDi},            // CountersRead
        {A::kClearPort, kDi},       // PortClearRequested
        {A::kStop, kDi},            // Stop
    }},
    // STANDBY: only polls the master; takes over when it goes silent or hands the subnet over.
    {{
        {A::kNone, kSb},            // SweepUp
        {A::kNone, kSb},            // SweepNotUp
        {A::kNone, kSb},            // SweepFoundMaster
        {A::kNone, kSb},            // SweepAwaitsHandover
        {A::kTakeHandover, kMa},    // SetHandover
        {A::kNone, kNa},            // SetDisable
        {A::kNone, kSb},            // SetStandby
        {A::kRequestSweep, kDi},    // SetDiscover
        {A::kNone, kSb},            // SetAcknowledge
        {A::kTakeOver, kMa},        // MasterLost
        {A::kNudgeMaster, kSb},     // PolledMasterBelowUs
        {A::kNone, kSb},            // PolledByHigherStandby
        {A::kNone, kSb},            // PolledByHigherMaster
        {A::kNone, kSb},            // TrapLinkChange
        {A::kNone, kSb},            // TrapOther
        {A::kNone, kSb},            // LightSweepChange
        {A::kNone, kSb},            // IsSmRestored
        {A::kAdoptPolicy, kSb},     // PolicyReloaded
        {A::kNone, kSb},            // SweepRequested
        {A::kNone, kSb},            // RerouteRequested
        {A::kNone, kSb},            // LightSweepRequested
        {A::kSetSweeping, kSb},     // SweepingChanged
        {A::kNone, kSb},            // HeavySweepDue
        {A::kNone, kSb},            // LightSweepDue
        {A::kPollMaster, kSb},      // PollDue
        {A::kNone, kSb},            // GroupsChanged
        {A::kNone, kSb},            // McastDue
        {A::kNone, kSb},            // CountersRead
        {A::kClearPort, kSb},       // PortClearRequested
        {A::kStop, kSb},            // Stop
    }},
    // MASTER: owns the subnet: sweeps, repairs, hands over to an SM that outranks it, and waits for a
    // MASTER below it (two halves cabled together) to hand its part over (C14-60.2.1).
    {{
        {A::kConfigured, kMa},      // SweepUp
        {A::kConfigured, kMa},      // SweepNotUp
        {A::kFollowMaster, kSb},    // SweepFoundMaster
        {A::kAwaitHandover, kMa},   // SweepAwaitsHandover
        {A::kAcceptHandover, kMa},  // SetHandover
        {A::kNone, kMa},            // SetDisable
        {A::kNone, kMa},            // SetStandby
        {A::kNone, kMa},            // SetDiscover
        {A::kNone, kMa},            // SetAcknowledge
        {A::kRequestSweep, kMa},    // MasterLost
        {A::kNudgeMaster, kMa},     // PolledMasterBelowUs
        {A::kRequestSweep, kMa},    // PolledByHigherStandby
        {A::kRequestSweep, kMa},    // PolledByHigherMaster
        {A::kRequestSweep, kMa},    // TrapLinkChange
        {A::kRequestSweep, kMa},    // TrapOther
        {A::kRequestSweep, kMa},    // LightSweepChange
        {A::kRequestSweep, kMa},    // IsSmRestored
        {A::kStagePolicy, kMa},     // PolicyReloaded
        {A::kRequestSweep, kMa},    // SweepRequested
        {A::kRequestReroute, kMa},  // RerouteRequested
        {A::kRunLightSweep, kMa},   // LightSweepRequested
        {A::kSetSweeping, kMa},     // SweepingChanged
        {A::kRunHeavySweep, kMa},   // HeavySweepDue
        {A::kRunLightSweep, kMa},   // LightSweepDue
        {A::kPollMaster, kMa},      // PollDue
        {A::kScheduleMcast, kMa},   // GroupsChanged
        {A::kRunMcastPass, kMa},    // McastDue
        {A::kApplyHealth, kMa},     // CountersRead
        {A::kClearPort, kMa},       // PortClearRequested
        {A::kStop, kMa},            // Stop
    }},
}};
// clang-format on

}  // namespace

SmTransition sm_transition(SmState state, SmEvent event) {
  const auto s = static_cast<std::size_t>(state);
  const auto e = static_cast<std::size_t>(event);
  if (s >= kStateCount || e >= kSmEventCount) return {A::kNone, state};
  return kTransitions[s][e];
}

SmState project_state(SmState state, std::span<const SmEvent> queued) {
  for (SmEvent e : queued) state = sm_transition(state, e).next;
  return state;
}

std::optional<SmEvent> sminfo_set_event(std::uint32_t mod) {
  switch (mod) {
    case mad::sminfo_mod::kHandover: return SmEvent::kSetHandover;
    case mad::sminfo_mod::kDisable: return SmEvent::kSetDisable;
    case mad::sminfo_mod::kStandby: return SmEvent::kSetStandby;
    case mad::sminfo_mod::kDiscover: return SmEvent::kSetDiscover;
    case mad::sminfo_mod::kAcknowledge: return SmEvent::kSetAcknowledge;
    default: return std::nullopt;
  }
}

const char* to_string(SmAction action) {
  switch (action) {
    case SmAction::kNone: return "none";
    case SmAction::kRunHeavySweep: return "run-heavy-sweep";
    case SmAction::kRunLightSweep: return "run-light-sweep";
    case SmAction::kPollMaster: return "poll-master";
    case SmAction::kConfigured: return "configured";
    case SmAction::kFollowMaster: return "follow-master";
    case SmAction::kTakeHandover: return "take-handover";
    case SmAction::kTakeOver: return "take-over";
    case SmAction::kAcceptHandover: return "accept-handover";
    case SmAction::kAwaitHandover: return "await-handover";
    case SmAction::kNudgeMaster: return "nudge-master";
    case SmAction::kFollowSender: return "follow-sender";
    case SmAction::kRequestSweep: return "request-sweep";
    case SmAction::kRequestReroute: return "request-reroute";
    case SmAction::kStagePolicy: return "stage-policy";
    case SmAction::kAdoptPolicy: return "adopt-policy";
    case SmAction::kScheduleMcast: return "schedule-mcast";
    case SmAction::kRunMcastPass: return "run-mcast-pass";
    case SmAction::kApplyHealth: return "apply-health";
    case SmAction::kClearPort: return "clear-port";
    case SmAction::kSetSweeping: return "set-sweeping";
    case SmAction::kStop: return "stop";
  }
  return "?";
}

}  // namespace smd
