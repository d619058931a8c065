// drained_cables / routed_topology / first_separated_pair: see routed_topology.h.
#include "routing/isolation/routed_topology.h"

#include <algorithm>
#include <set>

namespace smd {
namespace {

/// Component number of every node over the cables of `topo` (breadth-first, numbered from 0).
std::vector<std::size_t> components(const Topology& topo) {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> comp(topo.size(), kNone);
  std::size_t next = 0;
  std::vector<NodeIndex> queue;
  for (NodeIndex start = 0; start < topo.size(); ++start) {
    if (comp[start] != kNone) continue;
    comp[start] = next;
    queue.assign(1, start);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const Node& n = topo.node(queue[head]);
      for (PortNum p = 1; p < n.ports.size(); ++p) {
        const Port& port = n.ports[p];
        if (!port.connected() || comp[port.peer] != kNone) continue;
        comp[port.peer] = next;
        queue.push_back(port.peer);
      }
    }
    ++next;
  }
  return comp;
}

/// Cabled non-switch ports of `topo`, by node index then port.
std::vector<CableEnd> endpoints(const Topology& topo) {
  std::vector<CableEnd> out;
  for (NodeIndex i = 0; i < topo.size(); ++i) {
    const Node& n = topo.node(i);
    if (n.is_switch()) continue;
    for (PortNum p = 1; p < n.ports.size(); ++p) {
      if (n.ports[p].connected()) out.push_back({i, p});
    }
  }
  return out;
}

}  // namespace

std::vector<IsolationDecision> drained_cables(const Topology& topo, std::span<const CableEnd> drains) {
  std::vector<IsolationDecision> cut;
  std::set<std::pair<CableEnd, CableEnd>> seen;
  const auto add = [&](NodeIndex n, PortNum p) {
    const Port& port = topo.node(n).ports[p];
    if (!port.connected()) return;
    IsolationDecision d;
    d.end = CableEnd{n, p};
    d.peer = CableEnd{port.peer, port.peer_port};
    d.isolated = true;
    if (seen.insert(std::minmax(d.end, d.peer)).second) cut.push_back(d);
  };
  for (const CableEnd& e : drains) {
    if (e.node >= topo.size()) continue;
    const Node& n = topo.node(e.node);
    if (e.port != 0) {
      if (e.port < n.ports.size()) add(e.node, e.port);
      continue;
    }
    // A CA is never drained whole (drain_target.h): port 0 of one (a hand-edited drain file) drains nothing
    // rather than cutting it off.
    if (!n.is_switch()) continue;
    for (PortNum p = 1; p < n.ports.size(); ++p) add(e.node, p);
  }
  return cut;
}

RoutedTopology routed_topology(const Topology& topo, std::span<const CableEnd> drains,
                               std::span<const CableEnd> health) {
  RoutedTopology out{topo, drained_cables(topo, drains), {}};
  if (!out.drained.empty()) out.topo = without_cables(topo, out.drained);
  if (health.empty()) return out;
  out.health = plan_isolation(out.topo, health);
  // Decisions on the drained fabric name its peers; a health request on a drained cable reads "not cabled",
  // which is true of what routing sees.
  if (std::any_of(out.health.begin(), out.health.end(), [](const IsolationDecision& d) { return d.isolated; })) {
    out.topo = without_cables(out.topo, out.health);
  }
  return out;
}

std::optional<std::pair<CableEnd, CableEnd>> first_separated_pair(const Topology& before, const Topology& after) {
  const std::vector<CableEnd> ends = endpoints(before);
  if (ends.size() < 2) return std::nullopt;
  const std::vector<std::size_t> comp_before = components(before);
  const std::vector<std::size_t> comp_after = components(after);
  // An endpoint whose cable is gone in `after` sits alone in its node's component only if the node has no
  // other cable; compare by the switch it still reaches, so its own missing cable separates it.
  const auto after_comp = [&](const CableEnd& e) -> std::optional<std::size_t> {
    if (e.node >= after.size() || e.port >= after.node(e.node).ports.size()) return std::nullopt;
    if (!after.node(e.node).ports[e.port].connected()) return std::nullopt;
    return comp_after[e.node];
  };
  for (std::size_t i = 0; i < ends.size(); ++i) {
    const std::optional<std::size_t> ci = after_comp(ends[i]);
    for (std::size_t j = i + 1; j < ends.size(); ++j) {
      if (comp_before[ends[i].node] != comp_before[ends[j].node]) continue;
      if (ends[i].node == ends[j].node) continue;  // two ports of one CA: not a pair routing serves
      const std::optional<std::size_t> cj = after_comp(ends[j]);
      if (!ci || !cj || *ci != *cj) return std::make_pair(ends[i], ends[j]);
    }
  }
  return std::nullopt;
}

}  // namespace smd
