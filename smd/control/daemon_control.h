// DaemonControl: what the control socket may ask of the daemon, as an interface the daemon implements,
// so smd/control never includes the SM state machine.
#pragma once

#include <memory>
#include <string>

#include "smd/state/fabric_snapshot.h"

namespace smd {

/// What the control socket may ask of the daemon. Implemented by the daemon; every call is made on the
/// daemon's io_context thread.
class DaemonControl {
 public:
  virtual ~DaemonControl() = default;
  /// The latest published snapshot (never null once the daemon runs).
  virtual std::shared_ptr<const FabricSnapshot> snapshot() const = 0;
  /// Ask for a heavy sweep as soon as possible (coalesced with one already pending).
  virtual void request_heavy_sweep(const std::string& reason) = 0;
  /// Recompute routes on the current topology and program the difference.
  virtual void request_reroute(const std::string& reason) = 0;
  /// Drop the unhealthy mark of `port` (`smctl port clear`), applied between sweeps; `reason` names who
  /// asked. Queued even when the port is not marked (the answer reads the snapshot).
  virtual void request_port_clear(PortKey port, const std::string& reason) = 0;
};

}  // namespace smd
