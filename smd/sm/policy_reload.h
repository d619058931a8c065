// Which keys of a reloaded policy need a restart. Most of a policy takes effect at the start of the next
// heavy sweep (routing, LMC, keys, intervals, ...); the keys below are read once, when the daemon starts,
// by something that lives as long as the process. A reload never half-applies them: the running value
// stays, and the difference is named in the log and in `smctl status` until the file agrees again.
//
//   sm.ca, sm.port, sm.port_guid      the SM port is opened once (umad port, receive thread)
//   sm.state_dir                      guid2lid is read from it once per process; later writes go there
//   mad.window, mad.timeout_ms,       the transport is built with them once (UmadTransportOptions)
//   mad.retries
//   log.file                          the log file is opened once by main() (SIGUSR1 reopens the same path)
//
// log.level is not among them: each accepted reload sets the running level from the file (over an earlier
// `smctl log-level` or --log-level).
//   control.socket, control.mode      the control socket is bound once
//   metrics.listen, metrics.enabled   the Prometheus endpoint is started once
#pragma once

#include <vector>

#include "config/policy.h"
#include "smd/state/fabric_snapshot.h"

namespace smd {

/// The restart-only keys whose value in `file` differs from `running`, in the order of the table above;
/// values spelled as in the policy file (GUIDs in hex, control.mode in octal, "" for an empty string).
std::vector<RestartNeeded> keys_needing_restart(const Policy& running, const Policy& file);

/// `file` with every restart-only key set back to its value in `running`: the policy a reload applies.
Policy keep_restart_keys(const Policy& running, Policy file);

}  // namespace smd
