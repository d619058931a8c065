// HealthMonitor's health.babbling_port part (OpenSM's babbling_port_policy). OpenSM never enables a port it
// disabled (only ibportstate or a reset does); smd enables it when the operator clears the port, naming
// either end, or when a reload turns health.babbling_port off.
#include <spdlog/spdlog.h>

#include "smd/perfmgr/health_monitor.h"

namespace smd {
void HealthMonitor::record_port_trap(std::uint16_t trap_number, Lid lid, PortNum port) {
  if (!policy_.health.babbling_port) return;
  const std::shared_ptr<const Topology> topo = host_.topology();
  if (!topo) return;
  const std::optional<PortKey> key = trap_port(*topo, host_.lids(), lid, port);
  if (!key) {
    spdlog::debug("trap {}: LID {} port {} is no port of the fabric", trap_number, lid, port);
    return;
  }
  const std::optional<Babbler> b = babbling_.record(*key, trap_number, std::chrono::steady_clock::now());
  if (!b) return;
  ++babbling_ports_total_;
  const Result<PortKey> end = host_.link_end_to_disable(*key);
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
  host_.request_sweep("health: port " + short_name(*key) + " babbling");
}

// The runner keeps the requests until they are set again: every end still to disable, every end to enable.
void HealthMonitor::update_phys_state_requests() {
  std::vector<PortKey> disable;
  for (const auto& [port, end] : babbling_ends_) {
    if (!disabled_ends_.contains(end)) disable.push_back(end);
  }
  host_.set_phys_state_requests(std::move(disable), {enable_ends_.begin(), enable_ends_.end()});
}

void HealthMonitor::babbling_after_sweep() {
  const auto [disabled, enabled] = host_.phys_state_done();
  if (disabled.empty() && enabled.empty()) return;
  for (const PortKey& end : disabled) {
    if (disabled_ends_.insert(end).second) spdlog::warn("health: link at port {} disabled", describe_port(end));
  }
  for (const PortKey& end : enabled) {
    enable_ends_.erase(end);
    disabled_ends_.erase(end);
    spdlog::info("health: link at port {} enabled again", describe_port(end));
  }
  update_phys_state_requests();
  host_.publish_marks();
}

// True when `port` was a babbling port or the end disabled for one.
bool HealthMonitor::enable_babbler(const PortKey& port) {
  for (auto it = babbling_ends_.begin(); it != babbling_ends_.end(); ++it) {
    if (it->first != port && it->second != port) continue;
    const PortKey end = it->second;
    babbling_.clear(it->first);
    babbling_ends_.erase(it);
    // A disable not yet carried out is simply withdrawn; a link already down is enabled.
    if (disabled_ends_.contains(end)) enable_ends_.insert(end);
    spdlog::info("health: port {} no longer babbling: link at port {} enabled by the next sweep", short_name(port),
                 short_name(end));
    update_phys_state_requests();
    host_.request_sweep("health: port " + short_name(port) + " enabled");
    return true;
  }
  // A babbler whose link could not be disabled (the SM's own port) has no end: forget it all the same.
  return babbling_.clear(port);
}

void HealthMonitor::babbling_policy_changed() {
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
  host_.request_sweep("health: babbling ports enabled");
}

void HealthMonitor::add_babbler_views(std::vector<UnhealthyPortView>& out) const {
  const std::shared_ptr<const Topology> topo = host_.topology();
  const NodeNames names(policy_.node_names);
  for (const auto& [key, b] : babbling_.babblers()) {
    UnhealthyPortView v;
    v.key = key;
    v.reason = b.reason;
    v.babbling = true;
    v.since = wall_time_of(b.since);
    if (const auto end = babbling_ends_.find(key); end != babbling_ends_.end()) {
      v.disabled_end =
          short_name(end->second) + (disabled_ends_.contains(end->second) ? " (disabled)" : " (disable pending)");
    } else {
      v.disabled_end = "(not disabled: the SM's own port)";
    }
    if (const std::optional<NodeIndex> n = topo ? topo->find(key.node_guid) : std::nullopt) {
      v.node_desc = names.of(topo->node(*n));
      v.dr_path = format_dr_path(topo->node(*n).dr_path);
    }
    v.kept_reason = "link disabled (health.babbling_port)";
    out.push_back(std::move(v));
  }
}

}  // namespace smd
