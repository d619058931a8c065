#include "smd/state/node_names.h"

namespace smd {

const std::string& NodeNames::of(Guid node_guid, const std::string& description) const {
  if (map_) {
    if (const std::string* name = map_->find(node_guid)) return *name;
  }
  return description;
}

std::string NodeNames::port(const Node& node, PortNum port) const { return of(node) + " port " + std::to_string(port); }

std::string NodeNames::describe(const Node& node) const {
  const std::string guid = format_guid(node.guid);
  const std::string& name = of(node);
  return name.empty() ? guid : guid + " (" + name + ")";
}

bool NodeNames::answers_to(const Node& node, std::string_view name) const {
  return node.description == name || of(node) == name;
}

}  // namespace smd
