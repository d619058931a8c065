// Before routing: the unhealthy ports' cables that routing may treat as gone (routing/isolation), decided on
// this sweep's fabric, and the topology routing then sees.
#include <spdlog/spdlog.h>

#include <utility>

#include "routing/isolation/cable_isolation.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

void SweepRunner::set_isolation_requests(std::vector<PortKey> ports) { isolation_.requests = std::move(ports); }

std::shared_ptr<const Topology> SweepRunner::isolation_phase(const std::shared_ptr<const Topology>& topo) {
  isolation_.outcomes.clear();
  if (isolation_.requests.empty()) return topo;
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
  const std::vector<IsolationDecision> decisions = plan_isolation(*topo, ends);
  bool any = false;
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    const IsolationDecision& d = decisions[i];
    IsolationOutcome& out = isolation_.outcomes[request_of[i]];
    out.isolated = d.isolated;
    out.reason = d.reason;
    if (d.peer.node != kNoNode) out.peer = {topo->node(d.peer.node).guid, d.peer.port};
    any = any || d.isolated;
  }
  if (!any) return topo;
  return std::make_shared<const Topology>(without_cables(*topo, decisions));
}

}  // namespace smd
