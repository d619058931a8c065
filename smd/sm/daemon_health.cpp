// The Daemon's side of fabric health: the events and sweeps that call the HealthMonitor
// (smd/perfmgr/health_monitor.h), and what the monitor asks of the SM (HealthHost), answered from the
// SweepRunner: the fabric, the isolation requests routing reads, the link ends a sweep disables.
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <utility>

#include "smd/program/port_disable.h"
#include "smd/sm/daemon.h"

namespace smd {

void Daemon::request_port_clear(PortKey port, const std::string& reason) {
  DaemonEvent e;
  e.kind = SmEvent::kPortClearRequested;
  e.why = "port clear: " + reason;
  e.port = port;
  post(std::move(e));
}

bool Daemon::perfmgr_may_run() const { return local_.state == mad::SmState::kMaster && !events_.stopping() && transport_; }

void Daemon::update_perfmgr() { health_.update_perfmgr(perfmgr_may_run()); }

void Daemon::health_after_sweep(const SweepSummary& s) { health_.after_sweep(s.subnet_up, perfmgr_may_run()); }

void Daemon::health_policy_changed() { health_.policy_changed(reloads_.generation(), perfmgr_may_run()); }

std::shared_ptr<const Topology> Daemon::topology() const { return runner_ ? runner_->topology() : nullptr; }

const LidMap& Daemon::lids() const { return runner_->lids(); }

std::shared_ptr<const Topology> Daemon::routed_topology() const {
  return runner_ ? runner_->routed_topology_snapshot() : nullptr;
}

const std::vector<PortKey>& Daemon::isolation_requests() const {
  static const std::vector<PortKey> kNone;
  return runner_ ? runner_->isolation_requests() : kNone;
}

void Daemon::set_isolation_requests(std::vector<PortKey> ports) {
  if (runner_) runner_->set_isolation_requests(std::move(ports));
}

std::vector<IsolationResult> Daemon::isolation() const {
  std::vector<IsolationResult> out;
  if (!runner_) return out;
  for (const SweepRunner::IsolationOutcome& o : runner_->isolation()) {
    out.push_back({o.port, o.peer, o.isolated, o.reason});
  }
  return out;
}

void Daemon::set_phys_state_requests(std::vector<PortKey> disable, std::vector<PortKey> enable) {
  if (runner_) runner_->set_phys_state_requests(std::move(disable), std::move(enable));
}

std::pair<std::vector<PortKey>, std::vector<PortKey>> Daemon::phys_state_done() const {
  if (!runner_) return {};
  const SweepRunner::PhysStateOutcome& done = runner_->phys_state_outcome();
  return {done.disabled, done.enabled};
}

Result<PortKey> Daemon::link_end_to_disable(const PortKey& babbler) const {
  return disable_end(*runner_->topology(), babbler);
}

void Daemon::request_sweep(const std::string& why) { schedule_heavy_sweep(Clock::now(), why); }

void Daemon::publish_marks() { publish(nullptr); }

void Daemon::counters_read() {
  // The PerfMgr thread: the pass waits in the monitor's mailbox until the SM's thread applies it.
  boost::asio::post(io_, [this] { post(SmEvent::kCountersRead, "PerfMgr counter pass"); });
}

}  // namespace smd
