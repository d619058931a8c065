#include "routing/engines/nue/nue.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "routing/engines/common/channels.h"
#include "routing/engines/common/vl_budget.h"
#include "routing/engines/nue/nue_cdg.h"
#include "routing/engines/nue/nue_escape.h"
#include "routing/model/hop_table.h"
#include "routing/model/vl_layers.h"

namespace smd {
namespace {

/// The destination LIDs of each layer, in routing order (step 1 of nue.h).
std::vector<std::vector<Lid>> partition_destinations(const std::vector<LidTarget>& targets, Lid max_lid,
                                                     std::uint8_t layers, bool include_switches) {
  std::vector<std::vector<Lid>> cas(layers);
  std::vector<std::vector<Lid>> switches(layers);
  std::size_t next = 0;
  for (std::size_t lid = 1; lid <= max_lid && lid < targets.size(); ++lid) {
    const LidTarget& t = targets[lid];
    if (t.sw == kNoSwitch) continue;
    const bool is_switch = t.port == 0;
    if (is_switch && !include_switches) {
      switches[0].push_back(static_cast<Lid>(lid));
      continue;
    }
    (is_switch ? switches : cas)[next].push_back(static_cast<Lid>(lid));
    next = (next + 1) % layers;
  }
  for (std::uint8_t l = 0; l < layers; ++l) cas[l].insert(cas[l].end(), switches[l].begin(), switches[l].end());
  return cas;
}

/// End nodes per switch for the weight update: the switch itself and every CA or router cabled to it.
std::vector<std::uint64_t> end_nodes(const SwitchGraph& graph) {
  std::vector<std::uint64_t> count(graph.num_switches(), 1);
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (PortNum p = 1; p <= graph.num_ports(s); ++p) {
      if (graph.peer_node(s, p) != kNoNode && graph.peer_switch(s, p) == kNoSwitch) ++count[s];
    }
  }
  return count;
}

/// One layer's routing state and the search of step 3.
class LayerRouter {
 public:
  LayerRouter(const SwitchGraph& graph, const ChannelIndex& channels, const std::vector<std::uint32_t>& component,
              std::vector<std::uint64_t>& weight)
      : graph_(graph), channels_(channels), component_(component), weight_(weight), cdg_(channels.size()) {}

  /// Add (or with `add` false remove) one use of every dependency of the tree paths to d. false when an added
  /// one closed a cycle, which tree paths cannot (nue_escape.h): the caller reports a broken invariant.
  bool escape_dependencies(const NueEscapeTree& tree, SwitchIndex d, bool add) {
    tree.paths_to(d, escape_next_, escape_order_);
    for (const SwitchIndex v : escape_order_) {
      const ChannelId c = escape_next_[v];
      if (c == kNoChannel) continue;
      const ChannelId then = escape_next_[channels_.to(c)];
      if (then == kNoChannel) continue;
      if (!add) {
        cdg_.remove(c, then);
      } else if (!cdg_.add(c, then)) {
        return false;
      }
    }
    return true;
  }

  /// Route every switch of d's component to d: next_[v] the channel v sends on. Returns false when it took the
  /// escape paths (an impasse).
  bool route(const NueEscapeTree& tree, SwitchIndex d) {
    const std::size_t n = graph_.num_switches();
    next_.assign(n, kNoChannel);
    settled_.assign(n, false);
    order_.clear();
    added_.clear();
    using Entry = std::tuple<std::uint64_t, SwitchIndex, ChannelId>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    queue.emplace(0, d, kNoChannel);
    while (!queue.empty()) {
      const auto [dist, v, c] = queue.top();
      queue.pop();
      if (settled_[v]) continue;
      if (c != kNoChannel) {
        const ChannelId then = next_[channels_.to(c)];
        if (then != kNoChannel) {
          if (!cdg_.add(c, then)) continue;  // would close a cycle: v waits for another neighbour
          added_.emplace_back(c, then);
        }
      }
      settled_[v] = true;
      next_[v] = c;
      order_.push_back(v);
      for (ChannelId out = channels_.first(v); out < channels_.end(v); ++out) {
        const SwitchIndex w = channels_.to(out);
        const ChannelId towards_v = channels_.reverse(out);
        if (!settled_[w] && towards_v != kNoChannel) queue.emplace(dist + weight_[towards_v], w, towards_v);
      }
    }
    bool complete = true;
    for (SwitchIndex v = 0; v < n && complete; ++v) complete = settled_[v] || component_[v] != component_[d];
    if (complete) {
      escape_dependencies(tree, d, false);
      return true;
    }
    for (const auto& [a, b] : added_) cdg_.remove(a, b);
    tree.paths_to(d, next_, order_);
    return false;
  }

  /// Step 4 for the routes just made: each switch's end nodes along its path.
  void update_weights(const std::vector<std::uint64_t>& ends) {
    carried_.assign(graph_.num_switches(), 0);
    for (std::size_t i = order_.size(); i-- > 1;) {
      const SwitchIndex v = order_[i];
      const ChannelId c = next_[v];
      carried_[v] += ends[v];
      weight_[c] += carried_[v];
      carried_[channels_.to(c)] += carried_[v];
    }
  }

  const std::vector<ChannelId>& next() const { return next_; }
  const std::vector<SwitchIndex>& order() const { return order_; }

 private:
  const SwitchGraph& graph_;
  const ChannelIndex& channels_;
  const std::vector<std::uint32_t>& component_;
  std::vector<std::uint64_t>& weight_;
  NueCdg cdg_;
  std::vector<ChannelId> next_, escape_next_;
  std::vector<SwitchIndex> order_, escape_order_;
  std::vector<bool> settled_;
  std::vector<std::pair<ChannelId, ChannelId>> added_;
  std::vector<std::uint64_t> carried_;
};

}  // namespace

Result<RoutingTables> NueEngine::compute(const Topology& topo, const LidMap& lids) const {
  const Lid max_lid = lids.max_lid();
  if (max_lid == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  const SwitchGraph graph = SwitchGraph::build(topo);
  const std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  const ChannelIndex channels(graph);
  const std::vector<std::uint32_t> component = switch_components(graph);
  const VlBudget budget = available_data_vls(topo, data_vls_, options_.max_vls, "routing.nue.max_vls");
  const std::vector<std::vector<Lid>> layers =
      partition_destinations(targets, max_lid, budget.vls, options_.include_switches);

  std::uint64_t destinations = 0;
  for (const std::vector<Lid>& layer : layers) destinations += layer.size();
  std::vector<std::uint64_t> weight(channels.size(), std::max<std::uint64_t>(1, destinations * destinations));
  const std::vector<std::uint64_t> ends = end_nodes(graph);

  RoutingTables tables;
  tables.engine = std::string(name());
  tables.lft.resize(topo.size());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) tables.lft[graph.node(s)] = Lft(max_lid);
  VlLayering layering(topo, max_lid);
  std::uint64_t escapes = 0;

  for (std::uint8_t l = 0; l < layers.size(); ++l) {
    if (layers[l].empty()) continue;
    std::vector<bool> is_destination(graph.num_switches(), false);
    for (const Lid lid : layers[l]) is_destination[targets[lid].sw] = true;
    const NueEscapeTree tree(graph, channels, central_switches(topo, graph, component, is_destination), weight);
    LayerRouter router(graph, channels, component, weight);
    for (const Lid lid : layers[l]) {
      if (!router.escape_dependencies(tree, targets[lid].sw, true)) {
        return make_error(ErrorCode::kInternal, "nue: the escape paths of layer " + std::to_string(l) + " to LID " +
                                                    std::to_string(lid) + " close a dependency cycle");
      }
    }
    for (const Lid lid : layers[l]) {
      const LidTarget& t = targets[lid];
      if (!router.route(tree, t.sw)) ++escapes;
      for (const SwitchIndex v : router.order()) {
        const ChannelId c = router.next()[v];
        tables.lft[graph.node(v)].set(lid, c == kNoChannel ? t.port : channels.port(c));
        layering.set(graph.node(v), lid, l);
      }
      router.update_weights(ends);
    }
  }
  if (escapes > 0) {
    // Not an error: the routes are deadlock free, but the escape trees carry more than their share.
    tables.notes.push_back("nue: " + std::to_string(escapes) + " of " + std::to_string(destinations) +
                           " destination LIDs met an impasse within " + std::to_string(budget.vls) +
                           " virtual layer(s) and took their escape paths (" + budget.limit + ")");
  }
  layering.set_vls_available(budget.vls);
  tables.layering = std::make_shared<const VlLayering>(std::move(layering));
  tables.deadlock_free = true;
  return tables;
}

}  // namespace smd
