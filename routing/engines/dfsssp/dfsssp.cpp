#include "routing/engines/dfsssp/dfsssp.h"

#include <memory>
#include <string>

#include "routing/engines/dfsssp/channels.h"
#include "routing/engines/dfsssp/layer_assign.h"
#include "routing/engines/dfsssp/sssp_paths.h"
#include "routing/engines/dfsssp/vl_budget.h"
#include "routing/model/hop_table.h"

namespace smd {
namespace {

struct Paths {
  SwitchGraph graph;
  ChannelIndex channels;
  std::vector<LidTarget> targets;
  RoutingTables tables;
};

Result<Paths> balanced_paths(const Topology& topo, const LidMap& lids, std::string_view engine) {
  if (lids.max_lid() == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  SwitchGraph graph = SwitchGraph::build(topo);
  ChannelIndex channels(graph);
  std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  RoutingTables tables;
  tables.engine = std::string(engine);
  tables.lft.resize(topo.size());
  route_balanced_shortest_paths(graph, channels, targets, lids.max_lid(), tables.lft);
  return Paths{std::move(graph), std::move(channels), std::move(targets), std::move(tables)};
}

std::string plural(unsigned n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

Result<RoutingTables> SsspEngine::compute(const Topology& topo, const LidMap& lids) const {
  auto paths = balanced_paths(topo, lids, name());
  if (!paths) return paths.error();
  return std::move(paths->tables);
}

Result<RoutingTables> DfssspEngine::compute(const Topology& topo, const LidMap& lids) const {
  auto paths = balanced_paths(topo, lids, name());
  if (!paths) return paths.error();
  const VlBudget budget = available_data_vls(topo, data_vls_, options_.max_vls);
  // Layers are found up to the IBA maximum even when fewer VLs are available, so the message can say
  // how many the fabric would need.
  auto assigned = assign_layers(topo, paths->graph, paths->channels, paths->targets, paths->tables.lft, lids.max_lid(),
                                kMaxDataVls);
  if (!assigned) return assigned.error();
  if (assigned->exceeded || assigned->layers_needed > budget.vls) {
    const std::string needs = assigned->exceeded ? "more than " + std::to_string(kMaxDataVls) + " virtual layers"
                                                 : plural(assigned->layers_needed, "virtual layer", "virtual layers");
    return make_error(ErrorCode::kDeclined, "needs " + needs + ", the fabric offers " +
                                                plural(budget.vls, "data VL", "data VLs") + " (" + budget.limit + ")");
  }
  if (options_.spread_vls) spread_layers(topo, assigned->layering, budget.vls);
  RoutingTables tables = std::move(paths->tables);
  tables.layering = std::make_shared<const VlLayering>(std::move(assigned->layering));
  tables.deadlock_free = true;
  return tables;
}

}  // namespace smd
