#include "routing/model/topology.h"

#include <cstdio>

#include "routing/model/enum_names.h"

namespace smd {

const char* to_string(NodeType type) { return node_type_word(type, {"CA", "Switch", "Router", "?"}); }

const char* to_string(PortState state) {
  static constexpr std::pair<PortState, const char*> kNames[] = {
      {PortState::kNoChange, "NoChange"}, {PortState::kDown, "Down"},     {PortState::kInit, "Init"},
      {PortState::kArmed, "Armed"},       {PortState::kActive, "Active"},
  };
  return enum_name(state, kNames);
}

std::string format_guid(Guid guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

std::string describe_node(const Node& node) {
  const std::string guid = format_guid(node.guid);
  return node.description.empty() ? guid : guid + " (" + node.description + ")";
}

std::string format_dr_path(const std::vector<std::uint8_t>& path) {
  std::string out = "0";
  for (auto p : path) {
    out += ',';
    out += std::to_string(p);
  }
  return out;
}

Result<NodeIndex> Topology::add_node(Node node) {
  if (node.ports.size() != static_cast<std::size_t>(node.num_ports) + 1) {
    return make_error(ErrorCode::kInvalidInput,
                      "node " + format_guid(node.guid) + ": ports vector size does not match NumPorts");
  }
  if (auto it = by_guid_.find(node.guid); it != by_guid_.end()) {
    const Node& other = nodes_[it->second];
    return make_error(ErrorCode::kInvalidInput, "duplicate node GUID " + format_guid(node.guid) + " at DR path " +
                                                    format_dr_path(other.dr_path) + " and DR path " +
                                                    format_dr_path(node.dr_path));
  }
  const auto index = static_cast<NodeIndex>(nodes_.size());
  for (std::size_t p = 0; p < node.ports.size(); ++p) node.ports[p].num = static_cast<PortNum>(p);
  by_guid_.emplace(node.guid, index);
  (node.is_switch() ? switches_ : cas_).push_back(index);
  nodes_.push_back(std::move(node));
  return index;
}

Status Topology::connect(NodeIndex a, PortNum pa, NodeIndex b, PortNum pb) {
  if (a >= nodes_.size() || b >= nodes_.size()) return make_error(ErrorCode::kInvalidInput, "connect: no such node");
  Node& na = nodes_[a];
  Node& nb = nodes_[b];
  if (pa == 0 || pa > na.num_ports || pb == 0 || pb > nb.num_ports) {
    return make_error(ErrorCode::kInvalidInput, "connect: port out of range on " + format_guid(na.guid) + "[" +
                                                    std::to_string(pa) + "] or " + format_guid(nb.guid) + "[" +
                                                    std::to_string(pb) + "]");
  }
  Port& x = na.ports[pa];
  Port& y = nb.ports[pb];
  const bool x_ok = !x.connected() || (x.peer == b && x.peer_port == pb);
  const bool y_ok = !y.connected() || (y.peer == a && y.peer_port == pa);
  if (!x_ok || !y_ok) {
    return make_error(ErrorCode::kInvalidInput, "connect: " + format_guid(na.guid) + "[" + std::to_string(pa) +
                                                    "] <-> " + format_guid(nb.guid) + "[" + std::to_string(pb) +
                                                    "] conflicts with an existing link");
  }
  x.peer = b;
  x.peer_port = pb;
  y.peer = a;
  y.peer_port = pa;
  return Ok{};
}

std::optional<NodeIndex> Topology::find(Guid node_guid) const {
  auto it = by_guid_.find(node_guid);
  if (it == by_guid_.end()) return std::nullopt;
  return it->second;
}

std::size_t Topology::link_count() const {
  std::size_t n = 0;
  for (NodeIndex i = 0; i < nodes_.size(); ++i) {
    for (const Port& p : nodes_[i].ports) {
      if (p.connected() && (p.peer > i || (p.peer == i && p.peer_port > p.num))) ++n;
    }
  }
  return n;
}

}  // namespace smd
