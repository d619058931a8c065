// health.babbling_port (OpenSM's babbling_port_policy): traps 129-131 counted per port
// (smd/perfmgr/babbling_ports.h); a port past the rate has the nearer end of its link disabled by the next
// master sweep (smd/program/port_disable.h, sweep_phys_state.cpp). OpenSM never enables such a port again
// (only ibportstate or a reset does); smd enables it when the operator clears the port (smctl port clear,
// naming either end) or when a reload turns health.babbling_port off.
#include <spdlog/spdlog.h>

#include <utility>

#include "smd/program/port_disable.h"
#include "smd/sm/daemon.h"

namespace smd {

namespace {

std::string short_key(const PortKey& key) { return format_guid(key.node_guid) + "/" + std::to_string(key.port); }

}  // namespace

void Daemon::record_port_trap(std::uint16_t trap_number, Lid lid, PortNum port) {
  if (!policy_.health.babbling_port || !runner_) return;
  const std::shared_ptr<const Topology> topo = runner_->topology();
  if (!topo) return;
  const std::optional<PortKey> key = trap_port(*topo, runner_->lids(), lid, port);
  if (!key) {
    spdlog::debug("trap {}: LID {} port {} is no port of the fabric", trap_number, lid, port);
    return;
  }
  const std::optional<Babbler> b = babbling_.record(*key, trap_number, Clock::now());
  if (!b) return;
  ++babbling_ports_total_;
  const Result<PortKey> end = disable_end(*topo, *key);
  if (!end) {
    spdlog::error("health: port {} babbles ({}); its link is not disabled: {}", describe_port(*key), b->reason,
                  end.error().message);
    return;
  }
  spdlog::warn("health: port {} babbles ({}): disabling its link at port {}", describe_port(*key), b->reason,
               describe_port(*end));
  babbling_ends_[*key] = *end;
  enable_ends_.erase(*end);
  update_phys_state_requests();
  schedule_heavy_sweep(Clock::now(), "health: port " + short_key(*key) + " babbling");
}

void Daemon::update_phys_state_requests() {
  if (!runner_) return;
  std::vector<PortKey> disable;
  for (const auto& [port, end] : babbling_ends_) {
    if (!disabled_ends_.contains(end)) disable.push_back(end);
  }
  runner_->set_phys_state_requests(std::move(disable), {enable_ends_.begin(), enable_ends_.end()});
}

void Daemon::babbling_after_sweep() {
  if (!runner_) return;
  const SweepRunner::PhysStateOutcome& done = runner_->phys_state_outcome();
  if (done.disabled.empty() && done.enabled.empty()) return;
  for (const PortKey& end : done.disabled) {
    if (disabled_ends_.insert(end).second) spdlog::warn("health: link at port {} disabled", describe_port(end));
  }
  for (const PortKey& end : done.enabled) {
    enable_ends_.erase(end);
    disabled_ends_.erase(end);
    spdlog::info("health: link at port {} enabled again", describe_port(end));
  }
  update_phys_state_requests();
  publish(nullptr);
}

bool Daemon::enable_babbler(const PortKey& port) {
  for (auto it = babbling_ends_.begin(); it != babbling_ends_.end(); ++it) {
    if (it->first != port && it->second != port) continue;
    const PortKey end = it->second;
    babbling_.clear(it->first);
    babbling_ends_.erase(it);
    // A disable not yet carried out is simply withdrawn; a link already down is enabled.
    if (disabled_ends_.contains(end)) enable_ends_.insert(end);
    spdlog::info("health: port {} no longer babbling: link at port {} enabled by the next sweep", short_key(port),
                 short_key(end));
    update_phys_state_requests();
    schedule_heavy_sweep(Clock::now(), "health: port " + short_key(port) + " enabled");
    return true;
  }
  // A babbler whose link could not be disabled (the SM's own port) has no end: forget it all the same.
  return babbling_.clear(port);
}

void Daemon::babbling_policy_changed() {
  babbling_.set_rule({policy_.health.babbling_traps, std::chrono::seconds(policy_.health.babbling_window_s)});
  if (policy_.health.babbling_port) return;
  babbling_.clear_all();
  for (const auto& [port, end] : babbling_ends_) {
    if (disabled_ends_.contains(end)) enable_ends_.insert(end);
  }
  if (babbling_ends_.empty()) return;
  spdlog::info("health: health.babbling_port is false: {} disabled links enabled by the next sweep",
               enable_ends_.size());
  babbling_ends_.clear();
  update_phys_state_requests();
  schedule_heavy_sweep(Clock::now(), "health: babbling ports enabled");
}

}  // namespace smd
