#include "routing/engines/lash/lash.h"

#include <memory>
#include <string>

#include "routing/engines/common/channels.h"
#include "routing/engines/common/layer_assign.h"
#include "routing/engines/common/vl_budget.h"
#include "routing/engines/lash/lash_paths.h"
#include "routing/model/hop_table.h"

namespace smd {
namespace {

/// The lowest LID of every switch's targets, per switch: the one route per switch pair that is placed.
std::vector<Lid> first_lid_per_switch(const SwitchGraph& graph, const std::vector<LidTarget>& targets) {
  std::vector<Lid> first(graph.num_switches(), 0);
  for (std::size_t lid = 1; lid < targets.size(); ++lid) {
    const SwitchIndex sw = targets[lid].sw;
    if (sw != kNoSwitch && first[sw] == 0) first[sw] = static_cast<Lid>(lid);
  }
  return first;
}

}  // namespace

Result<RoutingTables> LashEngine::compute(const Topology& topo, const LidMap& lids) const {
  const Lid max_lid = lids.max_lid();
  if (max_lid == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  const SwitchGraph graph = SwitchGraph::build(topo);
  const std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  const LashPaths paths(topo, graph);

  RoutingTables tables;
  tables.engine = std::string(name());
  tables.lft.resize(topo.size());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    Lft lft(max_lid);
    for (std::size_t lid = 1; lid <= max_lid && lid < targets.size(); ++lid) {
      const LidTarget& t = targets[lid];
      if (t.sw == kNoSwitch) continue;
      lft.set(static_cast<Lid>(lid), t.sw == s ? t.port : paths.port(s, t.sw));
    }
    tables.lft[graph.node(s)] = std::move(lft);
  }

  // One route per switch pair: only the first LID of each switch is a target of the placement.
  const std::vector<Lid> first = first_lid_per_switch(graph, targets);
  std::vector<LidTarget> placed(targets.size());
  for (SwitchIndex d = 0; d < graph.num_switches(); ++d) {
    if (first[d] != 0) placed[first[d]] = targets[first[d]];
  }
  // As OpenSM: the pairs in GUID order (i before j), both directions of a pair on one layer.
  std::vector<RouteGroup> pairs;
  const std::vector<SwitchIndex>& order = paths.by_guid();
  for (std::size_t i = 0; i < order.size(); ++i) {
    for (std::size_t j = i + 1; j < order.size(); ++j) {
      const SwitchIndex a = order[i];
      const SwitchIndex b = order[j];
      if (first[a] != 0 && first[b] != 0) pairs.push_back({{a, first[b]}, {b, first[a]}});
    }
  }
  const ChannelIndex channels(graph);
  // Placed up to the IBA maximum even when fewer VLs are available, so the error can say how many it needs.
  auto assigned = assign_layers_first_fit(topo, graph, channels, placed, tables.lft, max_lid, kMaxDataVls, pairs);
  if (!assigned) return assigned.error();
  if (assigned->exceeded || assigned->layers_needed > 1) {
    // Each direction on its own, in (switch, LID) order: fewer layers on some fabrics (a ring of 6: 2
    // instead of 3), more on others; the fewer wins, OpenSM's order on a tie.
    auto alone = assign_layers_first_fit(topo, graph, channels, placed, tables.lft, max_lid, kMaxDataVls);
    if (!alone) return alone.error();
    if (!alone->exceeded && (assigned->exceeded || alone->layers_needed < assigned->layers_needed)) {
      assigned = std::move(alone);
    }
  }
  const VlBudget budget = available_data_vls(topo, data_vls_, options_.max_vls, "routing.lash.max_vls");
  if (assigned->exceeded || assigned->layers_needed > budget.vls) {
    return layers_do_not_fit(assigned->layers_needed, assigned->exceeded, budget);
  }
  VlLayering& layering = assigned->layering;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    const NodeIndex node = graph.node(s);
    for (std::size_t lid = 1; lid <= max_lid && lid < targets.size(); ++lid) {
      const SwitchIndex d = targets[lid].sw;
      if (d == kNoSwitch || first[d] == lid) continue;
      layering.set(node, static_cast<Lid>(lid), layering.layer_of(node, first[d]));
    }
  }
  layering.set_vls_available(budget.vls);
  if (options_.spread_vls) spread_layers(topo, layering, budget.vls);
  tables.layering = std::make_shared<const VlLayering>(std::move(layering));
  tables.deadlock_free = true;
  return tables;
}

}  // namespace smd
