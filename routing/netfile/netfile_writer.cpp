#include "routing/netfile/netfile_writer.h"

#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

namespace smd {
namespace {

// ibsim console lines are limited to 127 characters and a Link command names two ids, so keep ids short.
constexpr std::size_t kMaxIdLength = 60;

Status check_ids(const Topology& topo) {
  std::unordered_map<std::string, NodeIndex> seen;
  for (NodeIndex i = 0; i < topo.size(); ++i) {
    const Node& n = topo.node(i);
    const std::string& d = n.description;
    const std::string where = "node " + std::to_string(i) + " (\"" + d + "\")";
    if (n.type == NodeType::kRouter) {
      return make_error(ErrorCode::kInvalidInput, where + ": ibsim netfiles cannot describe routers");
    }
    if (d.empty()) return make_error(ErrorCode::kInvalidInput, "node " + std::to_string(i) + ": empty description");
    if (d.size() > kMaxIdLength) {
      return make_error(ErrorCode::kInvalidInput, where + ": description longer than 60 characters");
    }
    if (d.find_first_of("\"\n\r") != std::string::npos) {
      return make_error(ErrorCode::kInvalidInput, where + ": description contains a quote or line break");
    }
    auto [it, fresh] = seen.emplace(d, i);
    if (!fresh) {
      return make_error(ErrorCode::kInvalidInput,
                        where + ": description also used by node " + std::to_string(it->second));
    }
  }
  return Ok{};
}

// The SM's node first (ibsim attaches clients to the first node), the rest in index order.
std::vector<NodeIndex> write_order(const Topology& topo) {
  std::vector<NodeIndex> order;
  order.reserve(topo.size());
  if (topo.sm_node != kNoNode && topo.sm_node < topo.size()) order.push_back(topo.sm_node);
  for (NodeIndex i = 0; i < topo.size(); ++i) {
    if (i != topo.sm_node) order.push_back(i);
  }
  return order;
}

void write_node(const Topology& topo, const Node& n, std::ostream& out) {
  out << (n.is_switch() ? "Switch" : "Hca") << ' ' << static_cast<unsigned>(n.num_ports) << " \"" << n.description
      << "\"\n";
  for (PortNum p = 1; p <= n.num_ports; ++p) {
    const Port& port = n.ports[p];
    if (!port.connected()) continue;
    out << '[' << static_cast<unsigned>(p) << "] \"" << topo.node(port.peer).description << "\"["
        << static_cast<unsigned>(port.peer_port) << ']';
    // ibsim's default is 4x SDR; only other rates are spelled out (as single-bit masks on both ends).
    const bool default_rate = (port.link_width_active == 0 || port.link_width_active == 2) &&
                              (port.link_speed_active == 0 || port.link_speed_active == 1);
    if (!default_rate) {
      out << " w=" << static_cast<unsigned>(port.link_width_active ? port.link_width_active : 2)
          << " s=" << static_cast<unsigned>(port.link_speed_active ? port.link_speed_active : 1);
    }
    out << '\n';
  }
  out << '\n';
}

}  // namespace

Status write_netfile(const Topology& topo, std::ostream& out) {
  Status ok = check_ids(topo);
  if (!ok.ok()) return ok;
  out << "# ibsim netfile written by smd: " << topo.switches().size() << " switches, " << topo.cas().size() << " CAs, "
      << topo.link_count() << " links\n\n";
  for (NodeIndex i : write_order(topo)) write_node(topo, topo.node(i), out);
  if (!out) return make_error(ErrorCode::kIo, "netfile: write failed");
  return Ok{};
}

}  // namespace smd
