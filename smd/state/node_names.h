// NodeNames: the one rule for the name operators see for a node. A node the node-name map
// (sm.node_name_map, config/node_name_map.h) names is shown by that name; any other by its
// NodeDescription. smctl's outputs, the metrics' node labels and the daemon's log lines about a node all
// ask here. Not used where the IBA wants the node's own words: the SA's NodeRecord carries the
// NodeDescription the node reported (IBA 15.2.5.2), and so do the state files that mirror OpenSM's.
// Cheap to copy (one shared pointer); a snapshot holds the NodeNames of the policy it was published under.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "config/node_name_map.h"
#include "routing/model/topology.h"

namespace smd {

class NodeNames {
 public:
  /// No map: every node is shown by its NodeDescription.
  NodeNames() = default;
  /// `map` may be null (no map).
  explicit NodeNames(std::shared_ptr<const NodeNameMap> map) : map_(std::move(map)) {}

  /// The display name of the node with GUID `node_guid` whose NodeDescription is `description`.
  const std::string& of(Guid node_guid, const std::string& description) const;
  const std::string& of(const Node& node) const { return of(node.guid, node.description); }

  /// "<display name> port <n>": how a port of a node is named in messages, peers and labels.
  std::string port(const Node& node, PortNum port) const;

  /// "0x0002c90300001234 (name)": describe_node with the display name, for log lines and errors.
  std::string describe(const Node& node) const;

  /// Whether an operator who typed `name` means `node`: its display name or its NodeDescription (smctl's
  /// NODE arguments take both, so scripts written before a map existed keep working).
  bool answers_to(const Node& node, std::string_view name) const;

  /// The map in use (null: none).
  const std::shared_ptr<const NodeNameMap>& map() const { return map_; }

 private:
  std::shared_ptr<const NodeNameMap> map_;
};

}  // namespace smd
