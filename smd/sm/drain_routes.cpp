// drain_routes: see drain_routes.h.
#include "smd/sm/drain_routes.h"

#include <optional>
#include <vector>

#include "routing/isolation/routed_topology.h"
#include "routing/whatif/fabric_loss.h"

namespace smd {

Status drain_routes(const DrainRouteInput& in, std::span<const CableEnd> drains) {
  if (!in.discovered || !in.routed || !in.lids || !in.tables) return Ok{};
  std::vector<CableEnd> health;
  for (const PortKey& k : in.health) {
    const std::optional<NodeIndex> n = in.discovered->find(k.node_guid);
    // As the sweep does (sweep_isolation.cpp): a request outside the fabric isolates nothing.
    if (n && k.port != 0 && k.port <= in.discovered->node(*n).num_ports) health.push_back({*n, k.port});
  }
  const RoutedTopology after = routed_topology(*in.discovered, drains, health);
  RerouteOptions options;
  options.chain = in.routing.engines;
  options.routing = in.routing.options;
  options.minimal_repair = in.routing.repair == RepairMode::kMinimal;
  auto routed = reroute_after_loss(*in.routed, after.topo, *in.lids, *in.tables, options);
  if (!routed) return routed.error();
  return Ok{};
}

}  // namespace smd
