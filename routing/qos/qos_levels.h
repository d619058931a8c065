// QoS level matching (OpenSM's osm_qos_policy_get_qos_level_by_pr, qos-policy.conf semantics) as a pure
// lookup: which QosLevel a PathRecord query between two ports gets.
//
// Built once per (policy, fabric): every port group is resolved to the set of port GUIDs it names, from
// the Topology (port GUIDs, NodeDescriptions, node types), the partition plan's per-port P_Keys (a
// partition's members are the ports that hold an entry with its base, full or limited) and the SM's own
// port. A port belongs to a group when any of the group's criteria holds. Then match() walks the rules in
// policy order: a rule matches when every criterion it gives holds; a P_Key or service ID criterion never
// holds for a query that carries none (as OpenSM). No rule: the DEFAULT level; no levels at all: nullptr.
// Cost: build O(groups x ports + partition members); match O(rules x criteria) plus hash look-ups.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/topology.h"
#include "routing/partitions/partition_plan.h"
#include "routing/partitions/partition_spec.h"
#include "routing/qos/qos_spec.h"

namespace smd {

class QosLevelMatcher {
 public:
  /// Resolve `spec`'s port groups on `topo`. `partitions` gives partition names their P_Key bases, `plan`
  /// the ports holding each (null: no port is in any partition). `sm_port_guid` is the port `self: true`
  /// stands for (0: none). Names the rules use that the spec does not define (the loader refuses them)
  /// match nothing.
  QosLevelMatcher(const QosSpec& spec, const Topology& topo, const PartitionsSpec& partitions,
                  const PartitionPlan* plan, Guid sm_port_guid);

  /// The level of a path from `src_port` to `dst_port` (port GUIDs). `pkey` is the query's P_Key (bit 15
  /// ignored), `service_id` its ServiceID, each nullopt when the query does not carry it. The pointer
  /// stays valid as long as this matcher.
  const QosLevel* match(Guid src_port, Guid dst_port, std::optional<std::uint16_t> pkey,
                        std::optional<std::uint64_t> service_id) const;

  /// The level named `name`, or nullptr.
  const QosLevel* level(std::string_view name) const;

  /// The port GUIDs of the group named `name` (empty for an unknown group), for logs and tests.
  const std::unordered_set<Guid>& group_ports(std::string_view name) const;

 private:
  struct Rule {
    std::size_t level = 0;            // index into levels_
    std::vector<std::size_t> source;  // indexes into groups_; empty = any
    std::vector<std::size_t> destination;
    std::vector<QosRange> service_ids;
    std::vector<QosRange> pkeys;
  };
  bool in_any(const std::vector<std::size_t>& groups, Guid port) const;

  std::vector<QosLevel> levels_;
  std::optional<std::size_t> default_level_;
  std::vector<std::string> group_names_;
  std::vector<std::unordered_set<Guid>> groups_;
  std::vector<Rule> rules_;
};

}  // namespace smd
