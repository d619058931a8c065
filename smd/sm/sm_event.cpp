#include "smd/sm/sm_event.h"

namespace smd {

const char* to_string(SmEvent event) {
  switch (event) {
    case SmEvent::kSweepUp: return "sweep-up";
    case SmEvent::kSweepNotUp: return "sweep-not-up";
    case SmEvent::kSweepFoundMaster: return "sweep-found-master";
    case SmEvent::kSweepAwaitsHandover: return "sweep-awaits-handover";
    case SmEvent::kSetHandover: return "set-handover";
    case SmEvent::kSetDisable: return "set-disable";
    case SmEvent::kSetStandby: return "set-standby";
    case SmEvent::kSetDiscover: return "set-discover";
    case SmEvent::kSetAcknowledge: return "set-acknowledge";
    case SmEvent::kMasterLost: return "master-lost";
    case SmEvent::kPolledMasterBelowUs: return "polled-master-below-us";
    case SmEvent::kPolledByHigherStandby: return "polled-by-higher-standby";
    case SmEvent::kPolledByHigherMaster: return "polled-by-higher-master";
    case SmEvent::kTrapLinkChange: return "trap-link-change";
    case SmEvent::kTrapOther: return "trap-other";
    case SmEvent::kLightSweepChange: return "light-sweep-change";
    case SmEvent::kIsSmRestored: return "is-sm-restored";
    case SmEvent::kPolicyReloaded: return "policy-reloaded";
    case SmEvent::kSweepRequested: return "sweep-requested";
    case SmEvent::kRerouteRequested: return "reroute-requested";
    case SmEvent::kLightSweepRequested: return "light-sweep-requested";
    case SmEvent::kSweepingChanged: return "sweeping-changed";
    case SmEvent::kHeavySweepDue: return "heavy-sweep-due";
    case SmEvent::kLightSweepDue: return "light-sweep-due";
    case SmEvent::kPollDue: return "poll-due";
    case SmEvent::kGroupsChanged: return "groups-changed";
    case SmEvent::kMcastDue: return "mcast-due";
    case SmEvent::kCountersRead: return "counters-read";
    case SmEvent::kPortClearRequested: return "port-clear-requested";
    case SmEvent::kStop: return "stop";
  }
  return "?";
}

}  // namespace smd
