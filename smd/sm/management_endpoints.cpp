#include "smd/sm/management_endpoints.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace smd {

void ManagementEndpoints::start(boost::asio::io_context& io, DaemonControl& control, const Policy& policy,
                                MetricsServer::SnapshotFn snapshot) {
  control_ = std::make_unique<ControlServer>(io, control, policy.control.socket, policy.control.mode);
  if (auto st = control_->start(); !st.ok()) {
    spdlog::error("control socket: {}", st.error().message);
    control_.reset();
  }
  if (!policy.metrics.enabled) return;
  metrics_ = std::make_unique<MetricsServer>(io, std::move(snapshot), policy.metrics.listen);
  if (auto st = metrics_->start(); !st.ok()) {
    spdlog::error("metrics: {}", st.error().message);
    metrics_.reset();
  }
}

void ManagementEndpoints::stop() {
  if (control_) (void)control_->stop();
  if (metrics_) (void)metrics_->stop();
}

std::string ManagementEndpoints::metrics_address() const {
  return metrics_ && metrics_->port() != 0 ? metrics_->address() : std::string();
}

}  // namespace smd
