#include "routing/engines/dnup/dnup.h"

#include <algorithm>
#include <string>

#include "routing/engines/common/ar_groups.h"
#include "routing/engines/common/ca_destinations.h"
#include "routing/engines/common/channels.h"
#include "routing/engines/common/layer_assign.h"
#include "routing/engines/common/routing_order.h"
#include "routing/engines/common/updn_paths.h"
#include "routing/engines/dnup/dnup_rank.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {
namespace {

/// The GUIDs of `dsts` (at most 8, then "...").
std::string switch_guids(const Topology& topo, const SwitchGraph& graph, const std::vector<SwitchIndex>& dsts) {
  std::string out;
  for (std::size_t i = 0; i < dsts.size() && i < 8; ++i) out += " " + format_guid(topo.node(graph.node(dsts[i])).guid);
  if (dsts.size() > 8) out += " ...";
  return out;
}

/// Route every CA LID of `cas` (in rounds of LMC LIDs) along `order` into `tables`, and return the
/// switches with CAs that some switch of their component has no legal path to. Any such switch stops the
/// routing after round 0 (`tables` is then partial and the caller starts again with another order):
/// routing those LIDs through a valley is what closed cycles on rings and random graphs.
std::vector<SwitchIndex> route_ca_lids(const SwitchGraph& graph, const UpDownOrder& order,
                                       const std::vector<std::uint32_t>& component,
                                       const std::vector<std::uint32_t>& sources,
                                       const std::vector<CaDestination>& cas, RoutingTables& tables) {
  UpDownBalancer balancer(graph, sources);
  DestPaths paths;
  std::vector<Lid> group_lids;
  std::vector<PortNum> group_ports;
  std::vector<SwitchIndex> unreached;
  unsigned rounds = 1;
  for (const CaDestination& d : cas) rounds = std::max(rounds, d.count);
  // Round x routes LID base+x of every CA port (updn's rule): base LIDs spread on their own, the LMC
  // LIDs of one port on rotated ties.
  for (unsigned x = 0; x < rounds && unreached.empty(); ++x) {
    for (std::size_t i = 0; i < cas.size();) {
      std::size_t end = i;
      while (end < cas.size() && cas[end].sw == cas[i].sw) ++end;
      const SwitchIndex dst = cas[i].sw;
      paths.compute(graph, order, dst);
      bool cut = false;
      for (SwitchIndex v = 0; v < graph.num_switches() && !cut; ++v) {
        cut = component[v] == component[dst] && paths.dist(v) == DestPaths::kInf;
      }
      if (cut) {
        if (std::find(unreached.begin(), unreached.end(), dst) == unreached.end()) unreached.push_back(dst);
        i = end;
        continue;
      }
      group_lids.clear();
      group_ports.clear();
      for (std::size_t k = i; k < end; ++k) {
        if (x >= cas[k].count) continue;
        group_lids.push_back(static_cast<Lid>(cas[k].base + x));
        group_ports.push_back(cas[k].port);
      }
      balancer.route_lids(paths, group_lids, group_ports, x, tables);
      i = end;
    }
  }
  return unreached;
}

/// Whether every route `tables` give (each switch to each LID) keeps the channel-dependency graph acyclic:
/// they fit one virtual layer under layer_assign's cycle rule, the check lash and dfsssp layer with (an
/// engine may not call routing/verify). A route that does not deliver counts as not acyclic.
bool routes_acyclic(const Topology& topo, const SwitchGraph& graph, const std::vector<LidTarget>& targets,
                    const RoutingTables& tables, Lid max_lid) {
  const ChannelIndex channels(graph);
  auto one_layer = assign_layers(topo, graph, channels, targets, tables.lft, max_lid, 1, /*allow_first_fit=*/false);
  return one_layer.ok() && !one_layer->exceeded;
}

}  // namespace

Result<RoutingTables> DnupEngine::compute(const Topology& topo, const LidMap& lids) const {
  if (lids.max_lid() == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  const SwitchGraph graph = SwitchGraph::build(topo);
  const std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  const std::vector<std::uint32_t> component = switch_components(graph);
  std::vector<CaDestination> cas = ca_order_destinations(topo, lids, targets);
  std::vector<std::string> notes;
  if (!options_.guid_routing_order.empty()) {
    put_listed_first(topo, lids, options_.guid_routing_order, cas);
    const auto unknown = destination_order(topo, lids, options_.guid_routing_order).unknown;
    if (auto note = unknown_order_note(name(), unknown); !note.empty()) notes.push_back(std::move(note));
  }
  std::vector<std::uint32_t> sources(graph.num_switches(), 0);
  for (const CaDestination& d : cas) ++sources[d.sw];
  if (std::all_of(sources.begin(), sources.end(), [](std::uint32_t c) { return c == 0; })) {
    return make_error(ErrorCode::kDeclined, "no switch has a CA cabled to it: dnup ranks switches from the CAs");
  }

  UpDownOrder order = dnup_order(topo, graph, sources);
  RoutingTables tables = ca_tables(topo, graph, lids, cas);
  // Tops not shared by every CA switch: plateaus without CAs that do not meet. Then some CA pairs have
  // no down*/up* route at all (OpenSM's dnup leaves them unrouted), and the valley turns of the others
  // closed cycles; no order that keeps the CA ranks avoids that. Where the tops are shared the valley
  // turns of switch LIDs can still close one on a random graph: the tables' own dependency check says.
  // One top per component (updn's ranking) routes them all legally.
  std::string cause;
  std::vector<SwitchIndex> unreached = dnup_unshared_tops(graph, order, sources);
  if (unreached.empty()) unreached = route_ca_lids(graph, order, component, sources, cas, tables);
  if (!unreached.empty()) {
    cause = std::to_string(unreached.size()) +
            (unreached.size() == 1 ? " switch with CAs does" : " switches with CAs do") +
            " not climb to every top of its component:" + switch_guids(topo, graph, unreached);
  } else {
    route_switch_lids(graph, order, targets, component, sources, tables);
    if (!routes_acyclic(topo, graph, targets, tables, lids.max_lid())) {
      cause = "the routes through the valleys of the CA ranks' order close a channel-dependency cycle";
    }
  }
  if (!cause.empty()) {
    order = dnup_single_top_order(topo, graph, order);
    tables = ca_tables(topo, graph, lids, cas);
    unreached = route_ca_lids(graph, order, component, sources, cas, tables);
    if (!unreached.empty()) {
      // A guard: one local maximum per component reaches every switch, so this means a broken order.
      return make_error(ErrorCode::kDeclined, "dnup: no legal route to the CAs of" +
                                                  switch_guids(topo, graph, unreached) + " (" + cause + ")");
    }
    route_switch_lids(graph, order, targets, component, sources, tables);
    notes.push_back("dnup: " + cause + " (plateaus without CAs that do not meet); ranked from its top switch " +
                    format_guid(topo.node(graph.node(order.by_pos.front())).guid) +
                    " instead, as updn ranks from one root");
  }
  tables.engine = "dnup";
  tables.deadlock_free = true;
  tables.notes = std::move(notes);
  if (adaptive_) {
    if (auto st = attach_ar_plan(topo, lids, order, tables); !st) return st.error();
  }
  return tables;
}

}  // namespace smd
