#include "smd/perfmgr/babbling_ports.h"

#include <algorithm>

namespace smd {

BabblingPorts::BabblingPorts(BabblingRule rule) : rule_(rule) {}

void BabblingPorts::set_rule(BabblingRule rule) { rule_ = rule; }

std::optional<Babbler> BabblingPorts::record(const PortKey& key, std::uint16_t trap_number,
                                             std::chrono::steady_clock::time_point now) {
  if (babblers_.contains(key)) return std::nullopt;
  auto& times = recent_[key];
  times.push_back(now);
  while (!times.empty() && now - times.front() >= rule_.window) times.pop_front();
  // Only the newest `traps` matter to the rule: older ones are dropped so memory stays bounded.
  while (times.size() > std::max(1u, rule_.traps)) times.pop_front();
  if (times.size() < std::max(1u, rule_.traps)) return std::nullopt;
  Babbler b;
  b.reason = std::to_string(times.size()) + " traps 129-131 in " + std::to_string(rule_.window.count()) +
             " s (last: " + std::to_string(trap_number) + ")";
  b.since = now;
  recent_.erase(key);
  babblers_.emplace(key, b);
  return b;
}

unsigned BabblingPorts::traps_in_window(const PortKey& key, std::chrono::steady_clock::time_point now) const {
  const auto it = recent_.find(key);
  if (it == recent_.end()) return 0;
  return static_cast<unsigned>(
      std::count_if(it->second.begin(), it->second.end(), [&](auto t) { return now - t < rule_.window; }));
}

bool BabblingPorts::clear(const PortKey& key) {
  recent_.erase(key);
  return babblers_.erase(key) != 0;
}

std::vector<PortKey> BabblingPorts::clear_all() {
  std::vector<PortKey> out;
  for (const auto& [key, b] : babblers_) out.push_back(key);
  babblers_.clear();
  recent_.clear();
  return out;
}

std::optional<PortKey> trap_port(const Topology& topo, const LidMap& lids, Lid lid, PortNum port) {
  const std::optional<LidOwner> owner = lids.owner(lid);
  if (!owner || owner->node >= topo.size()) return std::nullopt;
  const Node& node = topo.node(owner->node);
  if (port == 0 || port > node.num_ports) return std::nullopt;
  return PortKey{node.guid, port};
}

}  // namespace smd
