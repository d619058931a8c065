// Before routing: the operator's drains and the unhealthy ports' cables that routing may treat as gone,
// decided on this sweep's fabric in the one place both meet (routing/isolation/routed_topology.h), and the
// topology routing then sees.
#include <spdlog/spdlog.h>

#include <utility>

#include "routing/isolation/routed_topology.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

void SweepRunner::set_isolation_requests(std::vector<PortKey> ports) { isolation_.requests = std::move(ports); }

void SweepRunner::set_drain_requests(std::vector<PortKey> parts) { isolation_.drains = std::move(parts); }

std::shared_ptr<const Topology> SweepRunner::isolation_phase(const std::shared_ptr<const Topology>& topo) {
  isolation_.outcomes.clear();
  isolation_.drained_cables = 0;
  if (isolation_.requests.empty() && isolation_.drains.empty()) return topo;
  std::vector<CableEnd> drains;
  for (const PortKey& k : isolation_.drains) {
    const std::optional<NodeIndex> n = topo->find(k.node_guid);
    // A part not in this sweep's fabric drains nothing now; it stays recorded for when it comes back.
    if (n && k.port <= topo->node(*n).num_ports) drains.push_back({*n, k.port});
  }
  std::vector<CableEnd> ends;
  std::vector<std::size_t> request_of;  // ends[i] is isolation_.requests[request_of[i]]
  for (std::size_t i = 0; i < isolation_.requests.size(); ++i) {
    const PortKey& k = isolation_.requests[i];
    IsolationOutcome out;
    out.port = k;
    const std::optional<NodeIndex> n = topo->find(k.node_guid);
    if (!n || k.port == 0 || k.port > topo->node(*n).num_ports) {
      out.reason = "not in the fabric";
      isolation_.outcomes.push_back(std::move(out));
      continue;
    }
    ends.push_back({*n, k.port});
    request_of.push_back(isolation_.outcomes.size());
    isolation_.outcomes.push_back(std::move(out));
  }
  RoutedTopology routed = routed_topology(*topo, drains, ends);
  isolation_.drained_cables = routed.drained.size();
  bool any = !routed.drained.empty();
  for (std::size_t i = 0; i < routed.health.size(); ++i) {
    const IsolationDecision& d = routed.health[i];
    IsolationOutcome& out = isolation_.outcomes[request_of[i]];
    out.isolated = d.isolated;
    out.reason = d.reason;
    // The peer as cabled in the fabric: a request on a drained cable still names its other end.
    const Port& port = topo->node(d.end.node).ports[d.end.port];
    if (port.connected()) out.peer = {topo->node(port.peer).guid, port.peer_port};
    any = any || d.isolated;
  }
  if (!routed.drained.empty()) {
    spdlog::info("routing: {} drain request(s) take {} cable(s) out of routing", isolation_.drains.size(),
                 routed.drained.size());
  }
  if (!any) return topo;
  return std::make_shared<const Topology>(std::move(routed.topo));
}

}  // namespace smd
