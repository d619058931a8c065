// plan_isolation / without_cables: see cable_isolation.h for the rule and why it keeps every CA routed.
#include "routing/isolation/cable_isolation.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <utility>

namespace smd {
namespace {

/// Removed switch-switch cables, one flag per (node, port), so a search skips them in O(1).
class RemovedCables {
 public:
  explicit RemovedCables(const Topology& topo) : first_(topo.size() + 1, 0) {
    for (NodeIndex i = 0; i < topo.size(); ++i) first_[i + 1] = first_[i] + topo.node(i).ports.size();
    removed_.assign(first_.back(), false);
  }
  bool removed(NodeIndex n, PortNum p) const { return removed_[first_[n] + p]; }
  void remove(const CableEnd& a, const CableEnd& b) {
    removed_[first_[a.node] + a.port] = true;
    removed_[first_[b.node] + b.port] = true;
  }

 private:
  std::vector<std::size_t> first_;  // [node] -> index of its port 0
  std::vector<bool> removed_;
};

/// The switch the SM's traffic enters the fabric by: the SM's own node when it is a switch, else the switch
/// cabled to the SM port; kNoNode without an SM (an offline topology) or with an uncabled SM port.
NodeIndex sm_switch(const Topology& topo) {
  if (topo.sm_node == kNoNode || topo.sm_node >= topo.size()) return kNoNode;
  const Node& sm = topo.node(topo.sm_node);
  if (sm.is_switch()) return topo.sm_node;
  if (topo.sm_port >= sm.ports.size()) return kNoNode;
  const Port& p = sm.ports[topo.sm_port];
  return p.connected() && topo.node(p.peer).is_switch() ? p.peer : kNoNode;
}

/// Switches reachable from `from` over switch-switch cables, skipping removed ones and the cable `skip`
/// (both of its ends). `seen` is sized topo.size() and filled here.
void reach(const Topology& topo, const RemovedCables& removed, NodeIndex from, const CableEnd& skip,
           std::vector<bool>& seen) {
  std::fill(seen.begin(), seen.end(), false);
  std::vector<NodeIndex> queue{from};
  seen[from] = true;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeIndex u = queue[head];
    const Node& n = topo.node(u);
    for (PortNum p = 1; p <= n.num_ports; ++p) {
      const Port& port = n.ports[p];
      if (!port.connected() || removed.removed(u, p)) continue;
      if (u == skip.node && p == skip.port) continue;
      if (port.peer == skip.node && port.peer_port == skip.port) continue;
      if (seen[port.peer] || !topo.node(port.peer).is_switch()) continue;
      seen[port.peer] = true;
      queue.push_back(port.peer);
    }
  }
}

/// After `reach` from d.end found that d.peer is lost without the cable (`end_side` = the end's side):
/// the end of the cable on the side away from the SM switch, kNoNode when the SM switch is on neither side
/// (no SM, or a fabric already split before this cable).
NodeIndex side_lost(const Topology& topo, const RemovedCables& removed, const IsolationDecision& d, NodeIndex sm_sw,
                    std::vector<bool>& end_side) {
  if (sm_sw == kNoNode) return kNoNode;
  if (end_side[sm_sw]) return d.peer.node;
  reach(topo, removed, d.peer.node, d.peer, end_side);  // now the peer's side
  return end_side[sm_sw] ? d.end.node : kNoNode;
}

/// The CA or router end of a cable that has one, for the "only link" reason.
std::string only_link_reason(const Topology& topo, const CableEnd& end, const CableEnd& peer) {
  const CableEnd host = topo.node(end.node).is_switch() ? peer : end;
  const Node& n = topo.node(host.node);
  const char* kind = n.type == NodeType::kRouter ? "a router" : "a CA";
  return "would cut off " + describe_node(n) + " port " + std::to_string(host.port) + ": it is " + kind +
         " port's only link";
}

}  // namespace

std::vector<IsolationDecision> plan_isolation(const Topology& topo, std::span<const CableEnd> requested) {
  std::vector<IsolationDecision> out;
  out.reserve(requested.size());
  RemovedCables removed(topo);
  const NodeIndex sm_sw = sm_switch(topo);
  std::vector<bool> seen(topo.size(), false);
  std::map<std::pair<CableEnd, CableEnd>, std::size_t> decided;  // (lower end, higher end) -> first decision

  for (const CableEnd& end : requested) {
    IsolationDecision d;
    d.end = end;
    if (end.node >= topo.size() || end.port == 0 || end.port > topo.node(end.node).num_ports) {
      d.reason = "no such port";
      out.push_back(std::move(d));
      continue;
    }
    const Port& port = topo.node(end.node).ports[end.port];
    if (!port.connected()) {
      d.reason = "not cabled";
      out.push_back(std::move(d));
      continue;
    }
    d.peer = CableEnd{port.peer, port.peer_port};
    const auto cable = std::minmax(d.end, d.peer);
    if (auto it = decided.find(cable); it != decided.end()) {
      d.isolated = out[it->second].isolated;
      d.reason = out[it->second].reason;
      out.push_back(std::move(d));
      continue;
    }
    decided.emplace(cable, out.size());

    if (!topo.node(end.node).is_switch() || !topo.node(d.peer.node).is_switch()) {
      d.reason = only_link_reason(topo, d.end, d.peer);
    } else {
      reach(topo, removed, end.node, end, seen);
      if (seen[d.peer.node]) {
        d.isolated = true;
        removed.remove(d.end, d.peer);
      } else if (const NodeIndex lost = side_lost(topo, removed, d, sm_sw, seen); lost != kNoNode) {
        d.reason = "would cut off switch " + describe_node(topo.node(lost)) + " from the SM";
      } else {
        d.reason = "would split the switches: " + describe_node(topo.node(d.end.node)) + " would no longer reach " +
                   describe_node(topo.node(d.peer.node));
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

Topology without_cables(const Topology& topo, std::span<const IsolationDecision> decisions) {
  Topology out = topo;
  for (const IsolationDecision& d : decisions) {
    if (!d.isolated || d.end.node >= out.size() || d.peer.node >= out.size()) continue;
    Node& a = out.mutable_node(d.end.node);
    Node& b = out.mutable_node(d.peer.node);
    if (d.end.port >= a.ports.size() || d.peer.port >= b.ports.size()) continue;
    Port& pa = a.ports[d.end.port];
    if (pa.peer != d.peer.node || pa.peer_port != d.peer.port) continue;  // stale, or already cut
    Port& pb = b.ports[d.peer.port];
    pa.peer = kNoNode;
    pa.peer_port = 0;
    pb.peer = kNoNode;
    pb.peer_port = 0;
  }
  return out;
}

}  // namespace smd
