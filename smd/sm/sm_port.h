// The SM port as the policy selects it: one place that turns sm.ca / sm.port / sm.port_guid and the
// mad.* keys into the MAD layer's options, shared by `smd --once` and the daemon.
#pragma once

#include <memory>

#include "config/policy.h"
#include "mad/transport/umad_port.h"
#include "mad/transport/umad_transport.h"

namespace smd {

/// Open the SM port named by the policy (sm.port 0 = the first usable port). Errors: as UmadPort::open,
/// naming the CA and port.
Result<std::unique_ptr<mad::UmadPort>> open_sm_port(const Policy& policy);

/// Window, per-attempt timeout and retries from mad.*.
mad::UmadTransportOptions transport_options(const Policy& policy);

}  // namespace smd
