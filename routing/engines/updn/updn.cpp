#include "routing/engines/updn/updn.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "routing/engines/common/ar_groups.h"
#include "routing/engines/common/ca_destinations.h"
#include "routing/engines/common/routing_order.h"
#include "routing/engines/common/updn_paths.h"
#include "routing/engines/updn/updn_roots.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {
namespace {

using CaDest = CaDestination;

/// routing.updn.ids as [switch] -> id (the GUID where none is given); empty when none are. GUIDs that name
/// no switch of the fabric are skipped, as OpenSM does, and named in `notes`.
std::vector<std::uint64_t> switch_ids(const Topology& topo, const SwitchGraph& graph, const std::vector<GuidId>& ids,
                                      std::vector<std::string>& notes) {
  if (ids.empty()) return {};
  std::vector<std::uint64_t> out(graph.num_switches());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) out[s] = topo.node(graph.node(s)).guid;
  std::string unknown;
  std::size_t count = 0;
  for (const GuidId& e : ids) {
    const auto node = topo.find(e.guid);
    const SwitchIndex s = node ? graph.index_of(*node) : kNoSwitch;
    if (s != kNoSwitch) {
      out[s] = e.id;
    } else if (++count <= 8) {
      unknown += " " + format_guid(e.guid);
    }
  }
  if (count > 0) {
    notes.push_back("routing.updn.ids: " + std::to_string(count) + (count == 1 ? " GUID names" : " GUIDs name") +
                    " no switch of the fabric, skipped:" + unknown + (count > 8 ? " ..." : ""));
  }
  return out;
}

/// Everything one routing pass needs besides the roots.
struct Fabric {
  const Topology& topo;
  const LidMap& lids;
  SwitchGraph graph;
  std::vector<LidTarget> targets;
  std::vector<std::uint32_t> component;
  std::vector<CaDest> cas;
  std::vector<std::uint32_t> sources;
  std::vector<std::uint64_t> ids;  ///< routing.updn.ids by switch, empty = GUIDs
  std::vector<std::string> notes;  ///< what the options named that the fabric lacks
};

Result<RoutingTables> route_from_roots(const Fabric& f, const std::vector<SwitchIndex>& roots, bool adaptive) {
  const UpDownOrder order = make_updown_order(f.topo, f.graph, rank_from_roots(f.graph, roots), f.ids);
  RoutingTables tables = ca_tables(f.topo, f.graph, f.lids, f.cas);
  tables.engine = "updn";
  tables.deadlock_free = true;
  tables.notes = f.notes;

  UpDownBalancer balancer(f.graph, f.sources);
  DestPaths paths;
  std::vector<Lid> group_lids;
  std::vector<PortNum> group_ports;
  unsigned rounds = 1;
  for (const CaDest& d : f.cas) rounds = std::max(rounds, d.count);
  // Round x routes LID base+x of every CA port: each round is spread on its own, so the base LIDs get
  // the regular pattern and the LMC LIDs of one port fall on different ports (rotated ties).
  for (unsigned x = 0; x < rounds; ++x) {
    for (std::size_t i = 0; i < f.cas.size();) {
      std::size_t end = i;
      while (end < f.cas.size() && f.cas[end].sw == f.cas[i].sw) ++end;
      const SwitchIndex dst = f.cas[i].sw;
      paths.compute(f.graph, order, dst);
      if (x == 0) {
        for (SwitchIndex v = 0; v < f.graph.num_switches(); ++v) {
          if (f.component[v] != f.component[dst] || paths.dist(v) != DestPaths::kInf) continue;
          return make_error(ErrorCode::kInvalidInput,
                            "up*/down* from the chosen roots gives switch " +
                                format_guid(f.topo.node(f.graph.node(v)).guid) + " no path to switch " +
                                format_guid(f.topo.node(f.graph.node(dst)).guid) + " (check routing.updn.roots)");
        }
      }
      group_lids.clear();
      group_ports.clear();
      for (std::size_t k = i; k < end; ++k) {
        if (x >= f.cas[k].count) continue;
        group_lids.push_back(static_cast<Lid>(f.cas[k].base + x));
        group_ports.push_back(f.cas[k].port);
      }
      balancer.route_lids(paths, group_lids, group_ports, x, tables);
      i = end;
    }
  }
  route_switch_lids(f.graph, order, f.targets, f.component, f.sources, tables);
  // routing.adaptive (issue 4): AR groups over the same up/down order the LFTs were routed with.
  if (adaptive) {
    if (auto st = attach_ar_plan(f.topo, f.lids, order, tables); !st) return st.error();
  }
  return tables;
}

}  // namespace

Result<RoutingTables> UpDownEngine::compute(const Topology& topo, const LidMap& lids) const {
  if (lids.max_lid() == 0) return make_error(ErrorCode::kInvalidInput, "no LIDs assigned, nothing to route");
  Fabric f{topo, lids, SwitchGraph::build(topo), {}, {}, {}, {}, {}, {}};
  f.targets = lid_targets(topo, f.graph, lids);
  f.component = switch_components(f.graph);
  f.cas = ca_order_destinations(topo, lids, f.targets);
  if (!options_.guid_routing_order.empty()) {
    put_listed_first(topo, lids, options_.guid_routing_order, f.cas);
    const auto unknown = destination_order(topo, lids, options_.guid_routing_order).unknown;
    if (auto note = unknown_order_note(name(), unknown); !note.empty()) f.notes.push_back(std::move(note));
  }
  f.ids = switch_ids(topo, f.graph, options_.ids, f.notes);
  f.sources.assign(f.graph.num_switches(), 0);
  for (const CaDest& d : f.cas) ++f.sources[d.sw];

  if (!options_.roots.empty()) {
    std::vector<SwitchIndex> roots;
    std::vector<std::uint8_t> has_root(f.graph.num_switches() + 1, 0);
    for (Guid g : options_.roots) {
      const auto node = topo.find(g);
      const SwitchIndex s = node ? f.graph.index_of(*node) : kNoSwitch;
      if (s == kNoSwitch) {
        return make_error(ErrorCode::kInvalidInput,
                          "routing.updn.roots: " + format_guid(g) + " is not a switch of the fabric");
      }
      roots.push_back(s);
      has_root[f.component[s]] = 1;
    }
    // A component the operator named no root for still needs one: take its centre.
    for (SwitchIndex c : choose_center_roots(f.graph, f.component)) {
      if (!has_root[f.component[c]]) roots.push_back(c);
    }
    auto r = route_from_roots(f, roots, adaptive_);
    return r;
  }
  auto r = route_from_roots(f, choose_updn_roots(f.graph, f.component, f.sources), adaptive_);
  if (!r) r = route_from_roots(f, choose_center_roots(f.graph, f.component), adaptive_);
  // No "updn: " prefix: the chain names the engine with every error it reports.
  return r;
}

}  // namespace smd
