// The events the SM state machine (smd/sm/sm_fsm.h) reacts to. Handlers (signals, unsolicited MADs, the
// control socket, timers) only record one of these; the daemon's loop applies them one by one, in the
// order they arrived, between sweeps. The enum is plain data so the table can be tested without a fabric.
#pragma once

#include <cstddef>
#include <cstdint>

namespace smd {

/// What happened. The order is the column order of the transition table (sm_fsm.cpp).
enum class SmEvent : std::uint8_t {
  // A heavy sweep finished (the outcome is applied at once, before anything queued during the sweep).
  kSweepUp,              ///< every LID set, every link Active, every table held
  kSweepNotUp,           ///< the sweep configured the fabric but left problems
  kSweepFoundMaster,     ///< the election gate stopped the sweep: another SM is master (or took our handover)
  kSweepAwaitsHandover,  ///< the gate stopped the sweep: a MASTER below us still holds the subnet (poll it)
  // An SMInfo Set from another SM that sminfo_set_refusal() let through (IBA 14.4.1, table 186).
  kSetHandover,     ///< HANDOVER: the master hands us the subnet (or its part of it)
  kSetDisable,      ///< DISABLE: go NOTACTIVE
  kSetStandby,      ///< STANDBY: stand by (it carries the sender, the master to poll)
  kSetDiscover,     ///< DISCOVER: go DISCOVERING
  kSetAcknowledge,  ///< ACKNOWLEDGE: the new master acknowledges our handover (changes nothing)
  // The master and its standbys.
  kMasterLost,             ///< the polled SM failed sm.poll_retries polls in a row (or gave mastership up)
  kPolledMasterBelowUs,    ///< a poll answer: the polled MASTER is of lower precedence than we are
  kPolledByHigherStandby,  ///< a STANDBY that outranks us polled our SMInfo: sweep, find it, hand over
  kPolledByHigherMaster,   ///< a MASTER that outranks us polled our SMInfo: sweep, find it, yield
  // The fabric changed.
  kTrapLinkChange,    ///< a trap classify_trap answers kSweepChanged (128 with an issuer LID)
  kTrapOther,         ///< a trap classify_trap answers kSweepFull (144, 128 without an issuer)
  kLightSweepChange,  ///< a light sweep found PortStateChange, a switch gone, or another master: a full sweep
  kIsSmRestored,      ///< our port had lost IsSM and has it again: other SMs may have missed us
  // The operator.
  kPolicyReloaded,       ///< SIGHUP: the policy file was read and validated (it carries the new policy)
  kSweepRequested,       ///< `smctl sweep`, or a SIGHUP whose file was refused
  kRerouteRequested,     ///< `smctl reroute`: the next sweep programs a fresh engine run
  kLightSweepRequested,  ///< `smctl sweep --light`: one light sweep now (MASTER)
  kSweepingChanged,      ///< `smctl sweeps off|on`: maintenance (it carries which, the reason, who asked)
  // Timers the daemon armed.
  kHeavySweepDue,  ///< the sweep timer expired: the pending heavy sweep may run now
  kLightSweepDue,  ///< sm.sweep_interval passed since the last sweep
  kPollDue,        ///< STANDBY, or MASTER awaiting a handover: sm.poll_interval passed since the last poll
  // Multicast (the SA's joins and leaves; OpenSM's IDLE_TIME_PROCESS of marked MLIDs).
  kGroupsChanged,  ///< the SA's groups changed (join, leave, policy): rebuild the changed trees soon
  kMcastDue,       ///< the multicast timer expired: rebuild and program the changed groups' MFTs now
  // Fabric health (the PerfMgr's counter passes; the operator's clears).
  kCountersRead,        ///< a PerfMgr pass ended: apply the health thresholds to what moved, expire quiet marks
  kPortClearRequested,  ///< `smctl port clear`: drop a port's unhealthy mark (it carries the port)
  kStop,                ///< SIGTERM / SIGINT
};

/// Number of SmEvent values (the columns of the transition table).
inline constexpr std::size_t kSmEventCount = static_cast<std::size_t>(SmEvent::kStop) + 1;

/// Short stable name for logs: "sweep-up", "set-handover", "trap-link-change", ...
const char* to_string(SmEvent event);

}  // namespace smd
