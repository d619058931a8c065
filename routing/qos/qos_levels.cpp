#include "routing/qos/qos_levels.h"

#include <algorithm>

namespace smd {

namespace {

/// Every endport GUID of `node`: a CA's or router's ports 1..n, a switch's port 0 (the only one with a
/// P_Key table and a LID of its own).
template <typename Visit>
void for_each_endport(const Node& node, Visit visit) {
  if (node.is_switch()) {
    if (!node.ports.empty() && node.ports[0].guid != 0) visit(node.ports[0].guid);
    return;
  }
  for (std::size_t p = 1; p < node.ports.size(); ++p) {
    if (node.ports[p].guid != 0) visit(node.ports[p].guid);
  }
}

std::unordered_set<Guid> resolve_group(const QosPortGroup& group, const Topology& topo,
                                       const PartitionsSpec& partitions, const PartitionPlan* plan, Guid sm_port_guid) {
  std::unordered_set<Guid> ports;
  const std::unordered_set<Guid> guids(group.guids.begin(), group.guids.end());
  for (const Node& node : topo.nodes()) {
    const bool whole_node =
        std::find(group.nodes.begin(), group.nodes.end(), node.description) != group.nodes.end() ||
        std::find(group.node_types.begin(), group.node_types.end(), node.type) != group.node_types.end() ||
        // A switch is named by its node GUID as often as by its port 0 GUID.
        (node.is_switch() && guids.contains(node.guid));
    for_each_endport(node, [&](Guid port) {
      if (whole_node || guids.contains(port)) ports.insert(port);
    });
  }
  if (group.self && sm_port_guid != 0) ports.insert(sm_port_guid);
  if (plan != nullptr && !group.partitions.empty()) {
    std::vector<PKeyBase> bases;
    for (const PartitionSpec& p : partitions.partitions) {
      if (std::find(group.partitions.begin(), group.partitions.end(), p.name) != group.partitions.end()) {
        bases.push_back(p.pkey);
      }
    }
    for (const auto& [port, pkeys] : plan->members) {
      const bool member = std::any_of(pkeys.begin(), pkeys.end(), [&](PKey k) {
        return std::find(bases.begin(), bases.end(), static_cast<PKeyBase>(k & 0x7fff)) != bases.end();
      });
      if (member) ports.insert(port);
    }
  }
  return ports;
}

bool in_ranges(const std::vector<QosRange>& ranges, std::uint64_t value) {
  return std::any_of(ranges.begin(), ranges.end(), [&](const QosRange& r) { return r.contains(value); });
}

}  // namespace

QosLevelMatcher::QosLevelMatcher(const QosSpec& spec, const Topology& topo, const PartitionsSpec& partitions,
                                 const PartitionPlan* plan, Guid sm_port_guid)
    : levels_(spec.levels) {
  for (std::size_t i = 0; i < levels_.size(); ++i) {
    if (levels_[i].name == kDefaultQosLevel) default_level_ = i;
  }
  for (const QosPortGroup& group : spec.port_groups) {
    group_names_.push_back(group.name);
    groups_.push_back(resolve_group(group, topo, partitions, plan, sm_port_guid));
  }
  auto group_index = [&](const std::string& name) -> std::optional<std::size_t> {
    auto it = std::find(group_names_.begin(), group_names_.end(), name);
    if (it == group_names_.end()) return std::nullopt;
    return static_cast<std::size_t>(it - group_names_.begin());
  };
  for (const QosMatchRule& r : spec.rules) {
    auto level = std::find_if(levels_.begin(), levels_.end(), [&](const QosLevel& l) { return l.name == r.level; });
    if (level == levels_.end()) continue;  // the loader refuses this; a rule without its level gives nothing
    Rule rule;
    rule.level = static_cast<std::size_t>(level - levels_.begin());
    bool known = true;
    for (const auto& [names, out] :
         {std::pair{&r.source, &rule.source}, std::pair{&r.destination, &rule.destination}}) {
      for (const std::string& name : *names) {
        if (auto i = group_index(name)) {
          out->push_back(*i);
        } else {
          known = false;
        }
      }
    }
    // An unknown group would leave the criterion empty, which reads as "any": drop the rule instead.
    if (!known) continue;
    rule.service_ids = r.service_ids;
    rule.pkeys = r.pkeys;
    rules_.push_back(std::move(rule));
  }
}

bool QosLevelMatcher::in_any(const std::vector<std::size_t>& groups, Guid port) const {
  return std::any_of(groups.begin(), groups.end(), [&](std::size_t g) { return groups_[g].contains(port); });
}

const QosLevel* QosLevelMatcher::match(Guid src_port, Guid dst_port, std::optional<std::uint16_t> pkey,
                                       std::optional<std::uint64_t> service_id) const {
  for (const Rule& rule : rules_) {
    if (!rule.source.empty() && !in_any(rule.source, src_port)) continue;
    if (!rule.destination.empty() && !in_any(rule.destination, dst_port)) continue;
    if (!rule.service_ids.empty() && (!service_id || !in_ranges(rule.service_ids, *service_id))) continue;
    if (!rule.pkeys.empty() && (!pkey || !in_ranges(rule.pkeys, *pkey & 0x7fffu))) continue;
    return &levels_[rule.level];
  }
  return default_level_ ? &levels_[*default_level_] : nullptr;
}

const QosLevel* QosLevelMatcher::level(std::string_view name) const {
  for (const QosLevel& l : levels_) {
    if (l.name == name) return &l;
  }
  return nullptr;
}

const std::unordered_set<Guid>& QosLevelMatcher::group_ports(std::string_view name) const {
  static const std::unordered_set<Guid> kNone;
  for (std::size_t i = 0; i < group_names_.size(); ++i) {
    if (group_names_[i] == name) return groups_[i];
  }
  return kNone;
}

}  // namespace smd
