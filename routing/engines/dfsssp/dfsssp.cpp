#include "routing/engines/dfsssp/dfsssp.h"

#include <algorithm>
#include <memory>
#include <string>

#include "routing/engines/common/channels.h"
#include "routing/engines/common/layer_assign.h"
#include "routing/engines/common/routing_order.h"
#include "routing/engines/common/updn_paths.h"
#include "routing/engines/common/vl_budget.h"
#include "routing/engines/dfsssp/sssp_paths.h"
#include "routing/model/hop_table.h"

namespace smd {
namespace {

struct Paths {
  SwitchGraph graph;
  ChannelIndex channels;
  std::vector<LidTarget> targets;
  RoutingTables tables;
};

Result<Paths> balanced_paths(const Topology& topo, const LidMap& lids, std::string_view engine,
                             const std::vector<Guid>& guid_routing_order) {
  if (lids.max_lid() == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  SwitchGraph graph = SwitchGraph::build(topo);
  ChannelIndex channels(graph);
  std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  RoutingTables tables;
  tables.engine = std::string(engine);
  tables.lft.resize(topo.size());
  DestinationOrder order;  // empty: increasing LIDs
  if (!guid_routing_order.empty()) order = destination_order(topo, lids, guid_routing_order);
  if (auto note = unknown_order_note(engine, order.unknown); !note.empty()) tables.notes.push_back(std::move(note));
  route_balanced_shortest_paths(graph, channels, targets, lids.max_lid(), tables.lft, order.lids);
  return Paths{std::move(graph), std::move(channels), std::move(targets), std::move(tables)};
}

/// Overwrite the routes to switch LIDs in `tables` with up*/down* ones (route_switch_lids) on an order
/// ranked by height above the CA-attached switches (highest first). Why: on a fat tree the shortest
/// routes between top switches turn down and up at varying switches and close cycles with the up-down
/// host routes, while up*/down* puts every such turn at one valley switch. Host routes are untouched.
void route_switch_lids_updown(const Topology& topo, const Paths& p, RoutingTables& tables) {
  const SwitchGraph& graph = p.graph;
  const std::size_t n = graph.num_switches();
  const std::vector<std::uint32_t> sources = source_ports(graph);
  std::vector<SwitchIndex> with_cas;
  for (SwitchIndex s = 0; s < n; ++s) {
    if (sources[s] > 0) with_cas.push_back(s);
  }
  const std::vector<std::uint32_t> height = switch_distances(graph, with_cas);
  std::uint32_t top = 0;
  for (std::uint32_t h : height) {
    if (h != kNoDistance) top = std::max(top, h);
  }
  std::vector<std::uint32_t> rank(n, 0);
  for (SwitchIndex s = 0; s < n; ++s) rank[s] = height[s] == kNoDistance ? 0 : top - height[s];
  const UpDownOrder order = make_updown_order(topo, graph, rank);
  route_switch_lids(graph, order, p.targets, switch_components(graph), sources, tables);
}

bool fewer_layers(const LayerAssignment& a, const LayerAssignment& b) {
  if (a.exceeded) return false;
  return b.exceeded || a.layers_needed < b.layers_needed;
}

}  // namespace

Result<RoutingTables> SsspEngine::compute(const Topology& topo, const LidMap& lids) const {
  auto paths = balanced_paths(topo, lids, name(), options_.guid_routing_order);
  if (!paths) return paths.error();
  return std::move(paths->tables);
}

Result<RoutingTables> DfssspEngine::compute(const Topology& topo, const LidMap& lids) const {
  auto paths = balanced_paths(topo, lids, name(), options_.guid_routing_order);
  if (!paths) return paths.error();
  const VlBudget budget = available_data_vls(topo, data_vls_, options_.max_vls, "routing.dfsssp.max_vls");
  // Layers are found up to the IBA maximum even when fewer VLs are available, so the message can say
  // how many the fabric would need.
  auto assigned = assign_layers(topo, paths->graph, paths->channels, paths->targets, paths->tables.lft, lids.max_lid(),
                                kMaxDataVls);
  if (!assigned) return assigned.error();
  RoutingTables tables = std::move(paths->tables);
  if (assigned->exceeded || assigned->layers_needed > 1) {
    // The other way to route switch LIDs, kept when it needs fewer layers (fat trees: one instead of
    // three or four); on tori and random graphs the balanced paths usually need fewer.
    RoutingTables other = tables;
    route_switch_lids_updown(topo, *paths, other);
    // The rule alone: where this helps (fat trees) it finds one layer without first fit.
    auto second = assign_layers(topo, paths->graph, paths->channels, paths->targets, other.lft, lids.max_lid(),
                                kMaxDataVls, /*allow_first_fit=*/false);
    if (!second) return second.error();
    if (fewer_layers(*second, *assigned)) {
      tables = std::move(other);
      assigned = std::move(second);
    }
  }
  if (assigned->exceeded || assigned->layers_needed > budget.vls) {
    return layers_do_not_fit(assigned->layers_needed, assigned->exceeded, budget);
  }
  assigned->layering.set_vls_available(budget.vls);
  if (options_.spread_vls) spread_layers(topo, assigned->layering, budget.vls);
  tables.layering = std::make_shared<const VlLayering>(std::move(assigned->layering));
  tables.deadlock_free = true;
  return tables;
}

}  // namespace smd
