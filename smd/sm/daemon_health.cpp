// Fabric health: the PerfMgr thread's life (MASTER with perfmgr.enabled), link flaps read from consecutive
// sweeps, the health rules' marks (smd/perfmgr/port_health.h) and the cables routing goes around
// (SweepRunner::set_isolation_requests, decided per sweep by routing/isolation: never cutting a node off).
#include <spdlog/spdlog.h>

#include <utility>

#include "smd/perfmgr/perf_target.h"
#include "smd/sm/daemon.h"

namespace smd {

namespace {

// health.thresholds keys are the counters' metric stems, in PortCounter order: thresholds index by position.
constexpr bool threshold_keys_match_counters() {
  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    if (std::string_view(kPortCounterInfo[i].metric) != kHealthThresholdKeys[i]) return false;
  }
  return kHealthThresholdKeys.size() == kPortCounterCount;
}
static_assert(threshold_keys_match_counters(), "config/policy.h kHealthThresholdKeys out of step with PortCounter");

HealthThresholds thresholds_of(const HealthPolicy& p, double interval_s) {
  HealthThresholds t;
  if (!p.enabled) return t;  // nothing marks a port
  for (std::size_t i = 0; i < kPortCounterCount; ++i) t.max_per_interval[i] = p.thresholds[i];
  t.flap_count = p.flap_count;
  t.flap_window = std::chrono::seconds(p.flap_window_s);
  t.quiet_period = std::chrono::seconds(p.quiet_period_s);
  t.interval_s = interval_s;
  return t;
}

// "0x0002c90300001234/5": a port in a sweep's reason.
std::string short_name(const PortKey& key) { return format_guid(key.node_guid) + "/" + std::to_string(key.port); }

// Every cabled port (1..N) of the fabric and the port at the other end.
std::map<PortKey, PortKey> cables_of(const Topology& topo) {
  std::map<PortKey, PortKey> out;
  for (const Node& n : topo.nodes()) {
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      const Port& port = n.ports[p];
      if (port.connected()) out[{n.guid, p}] = {topo.node(port.peer).guid, port.peer_port};
    }
  }
  return out;
}

}  // namespace

void Daemon::request_port_clear(PortKey port, const std::string& reason) {
  DaemonEvent e;
  e.kind = SmEvent::kPortClearRequested;
  e.why = "port clear: " + reason;
  e.port = port;
  post(std::move(e));
}

std::string Daemon::describe_port(const PortKey& key) const {
  std::string out = format_guid(key.node_guid);
  const std::shared_ptr<const Topology> topo = runner_ ? runner_->topology() : nullptr;
  const std::optional<NodeIndex> n = topo ? topo->find(key.node_guid) : std::nullopt;
  if (!n) return out + " port " + std::to_string(key.port);
  const Node& node = topo->node(*n);
  const NodeNames names(policy_.node_names);
  if (const std::string& name = names.of(node); !name.empty()) out += " (" + name + ")";
  out += " port " + std::to_string(key.port) + " via DR " + format_dr_path(node.dr_path);
  if (key.port <= node.num_ports && node.ports[key.port].connected()) {
    const Port& p = node.ports[key.port];
    out += "; cable to " + names.describe(topo->node(p.peer)) + " port " + std::to_string(p.peer_port);
  }
  return out;
}

void Daemon::update_perfmgr() {
  if (!perf_) return;
  const bool want = policy_.perfmgr.enabled && state_ == mad::SmState::kMaster && !stopping_ && transport_ && runner_ &&
                    runner_->topology();
  if (!want) {
    if (perf_->running()) {
      perf_->stop();
      spdlog::info("perfmgr: stopped");
    }
    return;
  }
  perf_->configure(policy_.perfmgr);
  if (!perf_->running()) {
    perf_->start();
    spdlog::info("perfmgr: reading PortCounters every {} s, {} MADs in flight", policy_.perfmgr.interval_s,
                 policy_.perfmgr.max_outstanding);
  }
}

void Daemon::on_counters_read(PerfPassDeltas deltas) {
  {
    const std::lock_guard lock(perf_mailbox_mutex_);
    // A pass that waited for the SM's thread longer than the next pass took is still counted once.
    if (perf_mailbox_.size() < 16) perf_mailbox_.push_back(std::move(deltas));
  }
  boost::asio::post(io_, [this] { post(SmEvent::kCountersRead, "PerfMgr counter pass"); });
}

void Daemon::apply_health(const DaemonEvent&) {
  std::vector<PerfPassDeltas> passes;
  {
    const std::lock_guard lock(perf_mailbox_mutex_);
    passes.swap(perf_mailbox_);
  }
  const auto now = Clock::now();
  std::string why;
  for (const PerfPassDeltas& pass : passes) {
    for (const auto& [key, delta, elapsed_s] : pass.moved) {
      if (auto mark = health_.record_errors(key, delta, elapsed_s, now)) {
        ++unhealthy_marks_total_;
        spdlog::warn("health: port {} marked unhealthy: {}", describe_port(key), mark->reason);
        if (why.empty()) why = "port " + short_name(key) + " unhealthy";
      }
    }
  }
  expire_quiet_marks(now, why);
  if (why.empty()) return;
  health_changed(why);
  publish(nullptr);
}

void Daemon::expire_quiet_marks(Clock::time_point now, std::string& why) {
  for (const PortKey& key : health_.expire_quiet(now)) {
    spdlog::info("health: port {} clean for health.quiet_period: mark cleared", describe_port(key));
    if (why.empty()) why = "port " + short_name(key) + " healthy again";
  }
}

void Daemon::health_tick() {
  std::string why;
  expire_quiet_marks(Clock::now(), why);
  if (!why.empty()) health_changed(why);
}

void Daemon::clear_port(const DaemonEvent& event) {
  const bool babbled = enable_babbler(event.port);
  if (!health_.clear(event.port)) {
    if (babbled) {
      publish(nullptr);
      return;
    }
    spdlog::info("health: {}: port {} was not marked", event.why, describe_port(event.port));
    return;
  }
  spdlog::info("health: {}: port {} cleared", event.why, describe_port(event.port));
  kept_warned_.erase(event.port);
  health_changed("port " + short_name(event.port) + " cleared");
  publish(nullptr);
}

void Daemon::health_after_sweep(const SweepSummary& s) {
  const std::shared_ptr<const Topology> topo = runner_ ? runner_->topology() : nullptr;
  if (!topo) return;
  const auto now = Clock::now();
  std::string why;
  // A cable the last sweep that brought the subnet up had, and this one (up too) lacks, went down: a flap on
  // both of its ports. A sweep left with problems may simply not have read a switch (lost SMPs): its missing
  // cables prove nothing, and it is not what the next one is compared with.
  if (s.subnet_up) {
    std::map<PortKey, PortKey> cables = cables_of(*topo);
    for (const auto& [port, peer] : last_cables_) {
      const auto it = cables.find(port);
      if (it != cables.end() && it->second == peer) continue;
      if (auto mark = health_.record_flap(port, now)) {
        ++unhealthy_marks_total_;
        spdlog::warn("health: port {} marked unhealthy: {}", describe_port(port), mark->reason);
        if (why.empty()) why = "port " + short_name(port) + " flapping";
      }
    }
    last_cables_ = std::move(cables);
  }
  expire_quiet_marks(now, why);
  // What this sweep's routing made of the requests: a cable kept in is warned about once per reason.
  for (const SweepRunner::IsolationOutcome& o : runner_->isolation()) {
    // A cable that is down right now needs no routing around (and no warning): it is back in the requests
    // when it comes up.
    if (o.isolated || o.peer.node_guid == 0) {
      kept_warned_.erase(o.port);
      continue;
    }
    auto [it, fresh] = kept_warned_.try_emplace(o.port, o.reason);
    if (!fresh && it->second == o.reason) continue;
    it->second = o.reason;
    spdlog::warn("health: unhealthy port {} stays routed: {}", describe_port(o.port), o.reason);
  }
  babbling_after_sweep();
  perf_->set_targets(
      perf_targets(*topo, runner_->lids(), NodeNames(policy_.node_names), policy_.perfmgr.ignore_cas));
  update_perfmgr();
  if (!why.empty()) health_changed(why);
}

void Daemon::health_policy_changed() {
  health_.set_thresholds(thresholds_of(policy_.health, policy_.perfmgr.interval_s));
  if (!policy_.health.enabled) {
    // Turned off: nothing is marked any more, so nothing is routed around.
    std::vector<PortKey> marked;
    for (const auto& [key, mark] : health_.marked()) marked.push_back(key);
    for (const PortKey& key : marked) {
      health_.clear(key);
      spdlog::info("health: health.enabled is false: port {} no longer marked", describe_port(key));
    }
    kept_warned_.clear();
  }
  babbling_policy_changed();
  health_changed("policy " + std::to_string(reloads_.generation()));
  update_perfmgr();
}

void Daemon::health_changed(const std::string& why) {
  std::vector<PortKey> isolate;
  if (policy_.health.enabled && policy_.health.isolate) {
    for (const auto& [key, mark] : health_.marked()) isolate.push_back(key);
  }
  if (!runner_) return;
  const bool same = runner_->isolation_requests() == isolate;
  runner_->set_isolation_requests(isolate);
  // Routing reads the requests at its next sweep; a set that did not change needs none.
  if (!same) schedule_heavy_sweep(Clock::now(), "health: " + why);
}

std::vector<UnhealthyPortView> Daemon::unhealthy_view() const {
  std::vector<UnhealthyPortView> out;
  if (!runner_) return out;
  const std::shared_ptr<const Topology> topo = runner_->topology();
  const auto now = Clock::now();
  const auto wall = std::chrono::system_clock::now();
  const NodeNames names(policy_.node_names);
  for (const auto& [key, mark] : health_.marked()) {
    UnhealthyPortView v;
    v.key = key;
    v.reason = mark.reason;
    v.flaps = health_.flaps(key, now);
    v.since = wall - std::chrono::duration_cast<std::chrono::system_clock::duration>(now - mark.since);
    if (const std::optional<NodeIndex> n = topo ? topo->find(key.node_guid) : std::nullopt) {
      const Node& node = topo->node(*n);
      v.node_desc = names.of(node);
      v.dr_path = format_dr_path(node.dr_path);
      if (key.port <= node.num_ports && node.ports[key.port].connected()) {
        const Port& p = node.ports[key.port];
        v.peer = names.port(topo->node(p.peer), p.peer_port);
      }
    }
    if (!policy_.health.isolate) {
      v.kept_reason = "health.isolate is false";
    } else {
      v.kept_reason = "waiting for the next sweep";
      for (const SweepRunner::IsolationOutcome& o : runner_->isolation()) {
        if (o.port != key) continue;
        v.isolated = o.isolated;
        v.kept_reason = o.isolated ? "" : o.reason;
      }
    }
    out.push_back(std::move(v));
  }
  for (const auto& [key, b] : babbling_.babblers()) {
    UnhealthyPortView v;
    v.key = key;
    v.reason = b.reason;
    v.babbling = true;
    v.since = wall - std::chrono::duration_cast<std::chrono::system_clock::duration>(now - b.since);
    if (const auto end = babbling_ends_.find(key); end != babbling_ends_.end()) {
      v.disabled_end = format_guid(end->second.node_guid) + "/" + std::to_string(end->second.port) +
                       (disabled_ends_.contains(end->second) ? " (disabled)" : " (disable pending)");
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
  return out;
}

}  // namespace smd
