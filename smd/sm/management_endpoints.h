// ManagementEndpoints: the control socket (smctl) and the Prometheus endpoint of one daemon, started and
// stopped together. Both are conveniences: one that cannot start is logged and left off, and the SM keeps
// running the fabric without it (an SM that refused to start over a busy metrics port would leave the
// fabric unmanaged). Both run on the daemon's io_context and read only its published snapshot.
#pragma once

#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>

#include "config/policy.h"
#include "smd/control/control_server.h"
#include "smd/control/daemon_control.h"
#include "smd/control/metrics_server.h"

namespace smd {

class ManagementEndpoints {
 public:
  /// Serve `control` on control.socket (mode control.mode) and, with metrics.enabled, `snapshot` on
  /// metrics.listen. An endpoint whose start fails is logged (naming the socket or address) and stays off.
  /// `control` and `io` must outlive this object.
  void start(boost::asio::io_context& io, DaemonControl& control, const Policy& policy,
             MetricsServer::SnapshotFn snapshot);
  /// Close both (idempotent): their threads of work stop before the transport does.
  void stop();

  bool control_serving() const { return control_ != nullptr; }
  /// The metrics endpoint's bound "host:port" (metrics.listen with port 0 resolved), "" when not serving.
  std::string metrics_address() const;

 private:
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<MetricsServer> metrics_;
};

}  // namespace smd
