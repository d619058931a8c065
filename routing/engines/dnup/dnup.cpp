#include "routing/engines/dnup/dnup.h"

#include <algorithm>
#include <string>

#include "routing/engines/common/ar_groups.h"
#include "routing/engines/common/ca_destinations.h"
#include "routing/engines/common/routing_order.h"
#include "routing/engines/common/updn_paths.h"
#include "routing/engines/dnup/dnup_rank.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {
namespace {

/// The note for CA switches some switch of their component has no legal path to ("" when none).
std::string unreached_note(const Topology& topo, const SwitchGraph& graph, const std::vector<SwitchIndex>& dsts) {
  if (dsts.empty()) return {};
  std::string out = "dnup: " + std::to_string(dsts.size()) +
                    (dsts.size() == 1 ? " switch with CAs is" : " switches with CAs are") +
                    " not reached down*/up* from every switch (routed through the legal ones):";
  for (std::size_t i = 0; i < dsts.size() && i < 8; ++i) out += " " + format_guid(topo.node(graph.node(dsts[i])).guid);
  if (dsts.size() > 8) out += " ...";
  return out;
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

  const UpDownOrder order = dnup_order(topo, graph, sources);
  RoutingTables tables = ca_tables(topo, graph, lids, cas);
  tables.engine = "dnup";
  tables.deadlock_free = true;

  UpDownBalancer balancer(graph, sources);
  DestPaths paths;
  std::vector<Lid> group_lids;
  std::vector<PortNum> group_ports;
  std::vector<SwitchIndex> unreached;
  unsigned rounds = 1;
  for (const CaDestination& d : cas) rounds = std::max(rounds, d.count);
  // Round x routes LID base+x of every CA port (updn's rule): base LIDs spread on their own, the LMC
  // LIDs of one port on rotated ties.
  for (unsigned x = 0; x < rounds; ++x) {
    for (std::size_t i = 0; i < cas.size();) {
      std::size_t end = i;
      while (end < cas.size() && cas[end].sw == cas[i].sw) ++end;
      const SwitchIndex dst = cas[i].sw;
      paths.compute(graph, order, dst);
      bool cut = false;
      for (SwitchIndex v = 0; v < graph.num_switches() && !cut; ++v) {
        cut = component[v] == component[dst] && paths.dist(v) == DestPaths::kInf;
      }
      if (cut && x == 0 && std::find(unreached.begin(), unreached.end(), dst) == unreached.end()) {
        unreached.push_back(dst);
      }
      group_lids.clear();
      group_ports.clear();
      for (std::size_t k = i; k < end; ++k) {
        if (x >= cas[k].count) continue;
        group_lids.push_back(static_cast<Lid>(cas[k].base + x));
        group_ports.push_back(cas[k].port);
      }
      balancer.route_lids(paths, group_lids, group_ports, x, tables);
      if (cut) {
        for (const Lid lid : group_lids) route_switch_lid_via_valley(graph, order, paths, component, dst, lid, tables);
      }
      i = end;
    }
  }
  route_switch_lids(graph, order, targets, component, sources, tables);
  if (auto note = unreached_note(topo, graph, unreached); !note.empty()) notes.push_back(std::move(note));
  tables.notes = std::move(notes);
  if (adaptive_) {
    if (auto st = attach_ar_plan(topo, lids, order, tables); !st) return st.error();
  }
  return tables;
}

}  // namespace smd
