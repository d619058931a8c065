#include "smd/sweep/discovery_vet.h"

#include <spdlog/spdlog.h>

#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "smd/sweep/discovered_subset.h"

namespace smd {

namespace {

constexpr std::size_t kNamedPerProblem = 8;  // nodes named in one "cut off" problem; the rest are counted

bool live_state(std::uint8_t state) { return state >= 2 && state <= 4; }  // Init, Armed, Active

std::string state_text(std::uint8_t state) {
  return state >= 1 && state <= 4 ? to_string(static_cast<PortState>(state)) : "state " + std::to_string(state);
}

// Why the two ends of the cable n.p <-> peer disagree, or "" when they agree (or one end is unread).
std::string disagreement(const ObservedFabric& d, NodeIndex n, PortNum p) {
  const Port& port = d.topo->node(n).ports[p];
  const mad::PortInfo* near = d.port_info(n, p);
  const mad::PortInfo* far = d.port_info(port.peer, port.peer_port);
  if (near == nullptr || far == nullptr) return "";
  const mad::PortInfo& a = *near;
  const mad::PortInfo& b = *far;
  // Named only when the ends disagree: every cable of the fabric is vetted on every sweep.
  auto peer = [&] {
    return format_guid(d.topo->node(port.peer).guid) + " port " + std::to_string(port.peer_port) + " (DR path " +
           d.port_path(port.peer, port.peer_port).to_string() + ")";
  };
  if (!live_state(a.port_state) || !live_state(b.port_state)) {
    return "the two ends disagree: port " + std::to_string(p) + " reports " + state_text(a.port_state) + ", its peer " +
           peer() + " reports " + state_text(b.port_state) + ", yet an SMP crossed the cable";
  }
  const bool width = a.link_width_active && b.link_width_active && a.link_width_active != b.link_width_active;
  const bool speed = a.link_speed_active && b.link_speed_active && a.link_speed_active != b.link_speed_active;
  if (width || speed) {
    return "the two ends disagree: port " + std::to_string(p) + " reports LinkWidthActive " +
           std::to_string(a.link_width_active) + " LinkSpeedActive " + std::to_string(a.link_speed_active) +
           ", its peer " + peer() + " reports " + std::to_string(b.link_width_active) + " and " +
           std::to_string(b.link_speed_active);
  }
  return "";
}

}  // namespace

void vet_discovered(ObservedFabric& d) {
  const Topology& in = *d.topo;
  std::vector<bool> keep(in.size(), true);
  std::vector<std::vector<bool>> cut(in.size());
  for (NodeIndex n = 0; n < in.size(); ++n) cut[n].assign(in.node(n).ports.size(), false);
  auto report = [&](Guid guid, std::string path, std::string attribute, std::string reason) {
    SweepProblem p{ProblemCode::kInconsistent, guid, std::move(path), std::move(attribute), std::move(reason)};
    spdlog::warn("discovery: {}", p.to_string());
    d.problems.push_back(std::move(p));
  };

  // Cables: both ends must describe the same live link.
  for (NodeIndex n = 0; n < in.size(); ++n) {
    const Node& node = in.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      if (!port.connected() || cut[n][p]) continue;
      if (port.peer == n) {
        // A loopback cable is real but carries nothing routable; it is left out without failing the sweep.
        spdlog::warn(
            "discovery: node {} at DR path {} ports {} and {} are cabled to each other (loopback); cable "
            "left out",
            format_guid(node.guid), format_dr_path(node.dr_path), p, port.peer_port);
        cut[n][p] = cut[n][port.peer_port] = true;
        continue;
      }
      if (const std::string why = disagreement(d, n, p); !why.empty()) {
        report(node.guid, d.port_path(n, p).to_string(), "PortInfo " + std::to_string(p), why + "; cable left out");
        cut[n][p] = cut[port.peer][port.peer_port] = true;
      }
    }
  }

  // Switches that cannot hold a unicast route (discovery already named them when SwitchInfo came back).
  for (NodeIndex s : in.switches()) {
    const auto& si = d.nodes[s].switch_info;
    if (s != in.sm_node && si && si->linear_fdb_cap == 0) keep[s] = false;
  }

  // What the removals cut off from the SM.
  const std::vector<bool> seen = reachable_from_sm(in, keep, cut);
  std::vector<NodeIndex> cut_off;
  for (NodeIndex n = 0; n < in.size(); ++n) {
    if (keep[n] && !seen[n] && in.sm_node != kNoNode) {
      keep[n] = false;
      cut_off.push_back(n);
    }
  }
  if (!cut_off.empty()) {
    std::string names;
    for (std::size_t i = 0; i < cut_off.size() && i < kNamedPerProblem; ++i) {
      const Node& node = in.node(cut_off[i]);
      names += (i ? ", " : "") + describe_node(node) + " at DR path " + format_dr_path(node.dr_path);
    }
    if (cut_off.size() > kNamedPerProblem)
      names += " and " + std::to_string(cut_off.size() - kNamedPerProblem) + " more";
    report(0, "-", "topology",
           std::to_string(cut_off.size()) +
               " nodes reachable only through what was left out above are left out too: " + names);
  }

  bool changed = false;
  for (NodeIndex n = 0; n < in.size() && !changed; ++n) {
    changed = !keep[n];
    for (PortNum p = 0; p < cut[n].size() && !changed; ++p) changed = cut[n][p];
  }
  if (!changed) return;

  keep_subset(d, keep, cut);
}

}  // namespace smd
