// Cable isolation: which unhealthy cables routing may treat as gone (issue 19). A port the health rules
// marked (smd/perfmgr/port_health.h) is only a request; this module decides, on the graph alone, whether
// routing can go around its cable without cutting anything off, and builds the topology routing then sees.
//
// The rule: a cable is isolated only when both ends are switch ports and, with it and every cable isolated
// before it removed, its two switches still reach each other through switch-switch cables. On a fabric
// whose switches were connected that is "every switch still reaches every other switch", so every CA,
// whose own cable is kept, keeps a path to every other CA. A CA (or router) port's cable is never isolated:
// it is that port's only link. Requests are decided in order, so which of two parallel cables stays
// depends on which was asked first; the caller passes them sorted for a stable answer.
//
// Cost: O(requests * (switches + switch ports)): one breadth-first search per request over the remaining
// switch-switch cables. No I/O, no allocation beyond the per-call arrays.
#pragma once

#include <compare>
#include <span>
#include <string>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/topology.h"

namespace smd {

/// One end of a cable: a node of a Topology and one of its physical ports.
struct CableEnd {
  NodeIndex node = kNoNode;
  PortNum port = 0;
  auto operator<=>(const CableEnd&) const = default;
};

/// What plan_isolation decided for one requested port.
struct IsolationDecision {
  CableEnd end;   ///< the requested port
  CableEnd peer;  ///< the other end of its cable (node kNoNode when the port is not cabled)
  bool isolated = false;
  /// Why it is kept, "" when isolated: "not cabled", "no such port", "would cut off 0x... (desc) port 1: it
  /// is a CA port's only link", "would cut off switch 0x... (desc) from the SM", or "would split the
  /// switches: 0x... (a) would no longer reach 0x... (b)" (a fabric without an SM switch).
  std::string reason;
};

/// Decide, in order, which requested ports' cables routing may treat as gone (rule in the header comment).
/// A request for both ends of one cable (or one end twice) decides it once: the later request gets the
/// first's decision, with `end` and `peer` seen from its own side. One decision per request, same order.
std::vector<IsolationDecision> plan_isolation(const Topology& topo, std::span<const CableEnd> requested);

/// `topo` with the isolated cables of `decisions` disconnected on both ends (peer = kNoNode, peer_port 0);
/// everything else (GUIDs, LIDs, port states, node indexes, sm_node) unchanged, so tables computed on it
/// index the same nodes. A decision whose cable `topo` does not have (a stale plan) is skipped.
Topology without_cables(const Topology& topo, std::span<const IsolationDecision> decisions);

}  // namespace smd
