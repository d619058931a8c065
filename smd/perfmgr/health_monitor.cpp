#include "smd/perfmgr/health_monitor.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "smd/perfmgr/perf_target.h"
#include "smd/state/node_names.h"

namespace smd {
namespace {

using Clock = std::chrono::steady_clock;

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

std::string HealthMonitor::short_name(const PortKey& key) {
  return format_guid(key.node_guid) + "/" + std::to_string(key.port);
}

std::chrono::system_clock::time_point HealthMonitor::wall_time_of(Clock::time_point at) {
  return std::chrono::system_clock::now() -
         std::chrono::duration_cast<std::chrono::system_clock::duration>(Clock::now() - at);
}

HealthMonitor::HealthMonitor(const Policy& policy, HealthHost& host, PerfAgent::Sender send)
    : policy_(policy), host_(host), perf_(std::make_unique<PerfAgent>(std::move(send), [this](PerfPassDeltas d) {
        on_counters_read(std::move(d));
      })) {}

std::string HealthMonitor::describe_port(const PortKey& key) const {
  std::string out = format_guid(key.node_guid);
  const std::shared_ptr<const Topology> topo = host_.topology();
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

void HealthMonitor::update_perfmgr(bool master) {
  if (!policy_.perfmgr.enabled || !master || !host_.topology()) {
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

void HealthMonitor::on_counters_read(PerfPassDeltas deltas) {
  {
    const std::lock_guard lock(mailbox_mutex_);
    // A pass that waited for the SM's thread longer than the next pass took is still counted once.
    if (mailbox_.size() < 16) mailbox_.push_back(std::move(deltas));
  }
  host_.counters_read();
}

void HealthMonitor::apply_passes() {
  std::vector<PerfPassDeltas> passes;
  {
    const std::lock_guard lock(mailbox_mutex_);
    passes.swap(mailbox_);
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
  changed(why);
  host_.publish_marks();
}

void HealthMonitor::expire_quiet_marks(Clock::time_point now, std::string& why) {
  for (const PortKey& key : health_.expire_quiet(now)) {
    spdlog::info("health: port {} clean for health.quiet_period: mark cleared", describe_port(key));
    if (why.empty()) why = "port " + short_name(key) + " healthy again";
  }
}

void HealthMonitor::tick() {
  std::string why;
  expire_quiet_marks(Clock::now(), why);
  if (!why.empty()) changed(why);
}

void HealthMonitor::clear_port(const PortKey& port, const std::string& why) {
  const bool babbled = enable_babbler(port);
  if (!health_.clear(port)) {
    if (babbled) {
      host_.publish_marks();
      return;
    }
    spdlog::info("health: {}: port {} was not marked", why, describe_port(port));
    return;
  }
  spdlog::info("health: {}: port {} cleared", why, describe_port(port));
  kept_warned_.erase(port);
  changed("port " + short_name(port) + " cleared");
  host_.publish_marks();
}

// A cable the last sweep that brought the subnet up had, and this one (up too) lacks, went down: a flap on
// both of its ports. A sweep left with problems may simply not have read a switch (lost SMPs): its missing
// cables prove nothing, and it is not what the next one is compared with.
void HealthMonitor::record_flaps(Clock::time_point now, std::string& why) {
  std::map<PortKey, PortKey> cables = cables_of(*host_.topology());
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

// What the last routing made of the requests: a cable kept in is warned about once per reason. A cable
// that is down right now needs no routing around (and no warning): it is back in the requests when it
// comes up.
void HealthMonitor::warn_kept_cables() {
  for (const IsolationResult& o : host_.isolation()) {
    if (o.isolated || o.peer.node_guid == 0) {
      kept_warned_.erase(o.port);
      continue;
    }
    auto [it, fresh] = kept_warned_.try_emplace(o.port, o.reason);
    if (!fresh && it->second == o.reason) continue;
    it->second = o.reason;
    spdlog::warn("health: unhealthy port {} stays routed: {}", describe_port(o.port), o.reason);
  }
}

void HealthMonitor::after_sweep(bool subnet_up, bool master) {
  const std::shared_ptr<const Topology> topo = host_.topology();
  if (!topo) return;
  const auto now = Clock::now();
  std::string why;
  if (subnet_up) record_flaps(now, why);
  expire_quiet_marks(now, why);
  warn_kept_cables();
  babbling_after_sweep();
  // Drained and isolated nodes keep their LIDs but no route reaches them: polled, they would only time out.
  std::vector<PerfTarget> targets =
      perf_targets(*topo, host_.lids(), NodeNames(policy_.node_names), policy_.perfmgr.ignore_cas);
  std::size_t unreachable = 0;
  if (const std::shared_ptr<const Topology> routed = host_.routed_topology()) {
    targets = lid_reachable(std::move(targets), *routed, unreachable);
  }
  perf_->set_targets(std::move(targets), unreachable);
  update_perfmgr(master);
  if (!why.empty()) changed(why);
}

void HealthMonitor::policy_changed(std::uint64_t generation, bool master) {
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
  changed("policy " + std::to_string(generation));
  update_perfmgr(master);
}

// Routing reads the requests at its next sweep; a set that did not change needs none.
void HealthMonitor::changed(const std::string& why) {
  std::vector<PortKey> isolate;
  if (policy_.health.enabled && policy_.health.isolate) {
    for (const auto& [key, mark] : health_.marked()) isolate.push_back(key);
  }
  const bool same = host_.isolation_requests() == isolate;
  host_.set_isolation_requests(isolate);
  if (!same) host_.request_sweep("health: " + why);
}

std::vector<UnhealthyPortView> HealthMonitor::view() const {
  std::vector<UnhealthyPortView> out;
  const std::shared_ptr<const Topology> topo = host_.topology();
  const auto now = Clock::now();
  const NodeNames names(policy_.node_names);
  const std::vector<IsolationResult> isolation = host_.isolation();
  for (const auto& [key, mark] : health_.marked()) {
    UnhealthyPortView v;
    v.key = key;
    v.reason = mark.reason;
    v.flaps = health_.flaps(key, now);
    v.since = wall_time_of(mark.since);
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
      for (const IsolationResult& o : isolation) {
        if (o.port != key) continue;
        v.isolated = o.isolated;
        v.kept_reason = o.isolated ? "" : o.reason;
      }
    }
    out.push_back(std::move(v));
  }
  add_babbler_views(out);
  return out;
}

}  // namespace smd
