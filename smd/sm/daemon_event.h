// DaemonEvent: one queued event with what its handler saw. Handlers build these and only queue them;
// the daemon's loop applies them in arrival order between sweeps (smd/sm/daemon_events.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "config/policy.h"
#include "routing/base/ids.h"
#include "smd/sm/sm_event.h"
#include "smd/state/fabric_snapshot.h"
#include "smd/state/sweep_summary.h"

namespace smd {

/// A policy file read and validated by the SIGHUP handler, waiting to take effect.
struct ReloadedPolicy {
  Policy policy;                             ///< restart-only keys already set back to their running values
  std::uint64_t generation = 0;              ///< 2, 3, ... (1 is the policy read at start-up)
  std::vector<RestartNeeded> needs_restart;  ///< what the file asks for that only a restart applies
};

struct DaemonEvent {
  SmEvent kind = SmEvent::kSweepRequested;
  std::chrono::steady_clock::time_point at{};    ///< when the handler saw it (a trap's debounce counts from here)
  std::string why;                               ///< for the log and a sweep's reason: "trap 128", "HANDOVER from ..."
  Lid trap_lid = 0;                              ///< kTrapLinkChange: the issuer
  Guid peer_guid = 0;                            ///< an obeyed SMInfo Set: the sender's port GUID
  Lid peer_lid = 0;                              ///< its LID when the Set came LID-routed, else 0
  std::uint64_t timer_gen = 0;                   ///< timer events: the arming that fired (older ones are stale)
  std::shared_ptr<const ReloadedPolicy> policy;  ///< kPolicyReloaded
  std::shared_ptr<const SweepSummary> summary;   ///< a sweep's outcome (kSweepUp, kSweepNotUp, kSweepFoundMaster)
  PortKey port{};                                ///< kPortClearRequested: the port to clear
  bool sweeping_on = false;                      ///< kSweepingChanged: sweeps on (true) or off
  std::string requester;                         ///< kSweepingChanged: who asked ("uid 0 pid 42")
};

}  // namespace smd
