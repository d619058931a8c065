#include "smd/control/fabric_view_json.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <set>

#include "routing/engines/updn/updn_roots.h"
#include "routing/model/hop_table.h"
#include "smd/control/health_requests.h"
#include "smd/control/requests.h"

namespace smd::control {

namespace {

// The cable states by severity: the higher index wins when a leaf's CA cables are summed up.
constexpr std::array<const char*, 6> kStates = {"idle", "traffic", "errors", "drained", "unhealthy", "isolated"};
enum CableState : std::uint8_t { kIdle, kTraffic, kErrors, kDrained, kUnhealthy, kIsolated };

constexpr std::uint32_t kUnreached = 0xFFFFFFFFu;

Lid node_lid(const FabricSnapshot& snap, NodeIndex n) {
  const Node& node = snap.topo->node(n);
  for (PortNum p = node.is_switch() ? 0 : 1; p < node.ports.size(); ++p) {
    const Lid lid = snap.lids ? snap.lids->base_lid(n, p) : node.ports[p].lid;
    if (lid != 0 || node.is_switch()) return lid;
  }
  return 0;
}

/// Tiers of every node (CAs 0) and whether the fabric is a tree, from the updn engine's roots and ranks.
struct Tiers {
  std::vector<std::uint32_t> tier;  ///< by NodeIndex
  bool tree = true;
  std::uint32_t count = 1;  ///< highest tier + 1
};

Tiers compute_tiers(const Topology& topo) {
  Tiers t;
  t.tier.assign(topo.size(), 0);
  const SwitchGraph graph = SwitchGraph::build(topo);
  if (graph.num_switches() == 0) return t;
  std::vector<std::uint32_t> sources(graph.num_switches(), 0);
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    for (PortNum p = 1; p <= graph.num_ports(s); ++p) {
      const NodeIndex peer = graph.peer_node(s, p);
      if (peer != kNoNode && !topo.node(peer).is_switch()) ++sources[s];
    }
  }
  const auto component = switch_components(graph);
  const auto rank = rank_from_roots(graph, choose_updn_roots(graph, component, sources));
  std::uint32_t max_rank = 0;
  for (std::uint32_t r : rank) {
    if (r != kUnreached) max_rank = std::max(max_rank, r);
  }
  // A tree: every switch with CAs is a leaf at the deepest rank. Anything else is drawn as rings.
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    if (sources[s] > 0 && rank[s] != max_rank) t.tree = false;
  }
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    const std::uint32_t r = rank[s] == kUnreached ? max_rank : rank[s];
    const std::uint32_t tier = 1 + (t.tree ? max_rank - r : r);
    t.tier[graph.node(s)] = tier;
    t.count = std::max(t.count, tier + 1);
  }
  return t;
}

/// What the health marks, the drains and the PerfMgr say about cable ends, looked up by PortKey.
struct CableFacts {
  std::map<PortKey, const UnhealthyPortView*> marks;
  std::map<PortKey, const PortCounterRow*> perf;
  std::set<Guid> drained_switches;
  std::set<PortKey> drained_ends;

  explicit CableFacts(const FabricSnapshot& snap) {
    for (const UnhealthyPortView& u : snap.unhealthy) marks[u.key] = &u;
    if (snap.perf) {
      for (const PortCounterRow& r : snap.perf->ports) perf[r.key] = &r;
    }
    for (const DrainedPartView& d : snap.drained) {
      if (d.part.port == 0) {
        drained_switches.insert(d.part.node_guid);
      } else {
        drained_ends.insert(d.part);
      }
    }
  }
};

std::uint64_t error_increments(const PortCounterRow* r) {
  if (!r) return 0;
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    if (is_error_counter(static_cast<PortCounter>(i))) sum += r->last_delta[i];
  }
  return sum;
}

struct Cable {
  CableState state = kIdle;
  std::uint64_t errors = 0;
  std::uint64_t rate = 0;
  std::string reason;
};

Cable judge(const CableFacts& facts, PortKey a, PortKey b) {
  Cable c;
  const auto perf_of = [&](PortKey k) -> const PortCounterRow* {
    const auto it = facts.perf.find(k);
    return it == facts.perf.end() ? nullptr : it->second;
  };
  const PortCounterRow* pa = perf_of(a);
  const PortCounterRow* pb = perf_of(b);
  c.errors = error_increments(pa) + error_increments(pb);
  c.rate = std::max(pa ? pa->data_rate[0] : 0, pb ? pb->data_rate[0] : 0);
  for (const PortKey& k : {a, b}) {
    const auto it = facts.marks.find(k);
    if (it == facts.marks.end()) continue;
    const CableState s = it->second->isolated ? kIsolated : kUnhealthy;
    if (s > c.state) {
      c.state = s;
      c.reason = it->second->node_desc + " port " + std::to_string(k.port) + ": " + it->second->reason;
    }
  }
  if (c.state != kIdle) return c;
  if (facts.drained_switches.contains(a.node_guid) || facts.drained_switches.contains(b.node_guid) ||
      facts.drained_ends.contains(a) || facts.drained_ends.contains(b)) {
    c.state = kDrained;
  } else if (c.errors > 0) {
    c.state = kErrors;
  } else if (c.rate > 0) {
    c.state = kTraffic;
  }
  return c;
}

Json end_json(Guid guid, PortNum port) { return {{"guid", format_guid(guid)}, {"port", port}}; }

/// The CA cables of one switch when CAs are not drawn: how many, the worst state, and the count per state.
struct CaSummary {
  std::size_t count = 0;
  std::array<std::size_t, kStates.size()> states{};
  CableState worst = kIdle;
};

/// Every cable once, judged: drawn ones as JSON, the CA cables of each switch summed up when CAs are not drawn.
struct CablePass {
  Json links = Json::array();
  std::vector<CaSummary> ca_summary;  ///< [switch node] when aggregated
  std::size_t switch_links = 0;
  std::size_t all_links = 0;
  std::array<std::size_t, kStates.size()> state_count{};
};

CablePass judge_cables(const Topology& topo, const CableFacts& facts, bool aggregated) {
  CablePass out;
  out.ca_summary.resize(topo.size());
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 1; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      // Each cable once: from its lower (node, port) end.
      if (!port.connected() || port.peer < n || (port.peer == n && port.peer_port <= p)) continue;
      const Node& peer = topo.node(port.peer);
      const Cable cable = judge(facts, {node.guid, p}, {peer.guid, port.peer_port});
      ++out.all_links;
      ++out.state_count[cable.state];
      const bool both_switches = node.is_switch() && peer.is_switch();
      if (both_switches) ++out.switch_links;
      if (aggregated && !both_switches) {
        // Summed up on the switch end (a CA-CA cable, no switch at all, is left out of the drawing).
        const NodeIndex sw = node.is_switch() ? n : (peer.is_switch() ? port.peer : kNoNode);
        if (sw == kNoNode) continue;
        CaSummary& sum = out.ca_summary[sw];
        ++sum.count;
        ++sum.states[cable.state];
        sum.worst = std::max(sum.worst, cable.state);
        continue;
      }
      Json lj = {{"a", end_json(node.guid, p)},
                 {"b", end_json(peer.guid, port.peer_port)},
                 {"state", kStates[cable.state]},
                 {"errors", cable.errors},
                 {"rate", cable.rate}};
      if (!cable.reason.empty()) lj["reason"] = cable.reason;
      out.links.push_back(std::move(lj));
    }
  }
  return out;
}

/// The nodes in drawing order: switches by tier (top first) and GUID, then the CAs when they are drawn.
Json view_nodes_json(const FabricSnapshot& snap, const Tiers& tiers, bool aggregated,
                     const std::vector<CaSummary>& ca_summary) {
  const Topology& topo = *snap.topo;
  std::vector<NodeIndex> order = topo.switches();
  std::sort(order.begin(), order.end(), [&](NodeIndex x, NodeIndex y) {
    if (tiers.tier[x] != tiers.tier[y]) return tiers.tier[x] > tiers.tier[y];
    return topo.node(x).guid < topo.node(y).guid;
  });
  if (!aggregated) order.insert(order.end(), topo.cas().begin(), topo.cas().end());
  Json nodes = Json::array();
  for (NodeIndex n : order) {
    const Node& node = topo.node(n);
    Json nj = {{"guid", format_guid(node.guid)},
               {"name", snap.names.of(node)},
               {"type", node.is_switch() ? "switch" : "ca"},
               {"tier", tiers.tier[n]},
               {"lid", node_lid(snap, n)}};
    if (aggregated && node.is_switch()) {
      const CaSummary& sum = ca_summary[n];
      nj["cas"] = sum.count;
      if (sum.count > 0) {
        Json states = Json::object();
        for (std::size_t s = 0; s < kStates.size(); ++s) {
          if (sum.states[s] > 0) states[kStates[s]] = sum.states[s];
        }
        nj["ca_links"] = {{"count", sum.count}, {"worst", kStates[sum.worst]}, {"states", std::move(states)}};
      }
    }
    nodes.push_back(std::move(nj));
  }
  return nodes;
}

}  // namespace

Json fabric_view_json(const FabricSnapshot& snap, const FabricViewOptions& options) {
  Json perf = nullptr;
  if (snap.perf) {
    perf = {{"passes", snap.perf->passes}, {"interval_s", snap.perf->interval_s}};
    if (snap.perf->passes > 0) perf["end"] = iso_time(snap.perf->last_pass_end);
  }
  Json view = {{"layout", "tiers"},      {"tiers", 1},
               {"aggregated", false},    {"perf", std::move(perf)},
               {"nodes", Json::array()}, {"links", Json::array()}};
  Json counts = {{"switches", 0}, {"cas", 0}, {"links", 0}, {"switch_links", 0}};
  if (!snap.topo) {
    counts["states"] = Json::object();
    view["counts"] = std::move(counts);
    return view;
  }
  const Topology& topo = *snap.topo;
  const Tiers tiers = compute_tiers(topo);
  const bool aggregated = topo.cas().size() > options.max_cas_drawn;
  const CableFacts facts(snap);
  view["layout"] = tiers.tree ? "tiers" : "rings";
  view["tiers"] = tiers.count;
  view["aggregated"] = aggregated;

  CablePass cables = judge_cables(topo, facts, aggregated);
  counts["switches"] = topo.switches().size();
  counts["cas"] = topo.cas().size();
  counts["links"] = cables.all_links;
  counts["switch_links"] = cables.switch_links;
  Json states = Json::object();
  for (std::size_t s = 0; s < kStates.size(); ++s) states[kStates[s]] = cables.state_count[s];
  counts["states"] = std::move(states);
  view["counts"] = std::move(counts);
  view["nodes"] = view_nodes_json(snap, tiers, aggregated, cables.ca_summary);
  view["links"] = std::move(cables.links);
  return view;
}

Result<Json> node_view_json(const FabricSnapshot& snap, std::string_view name) {
  auto n = resolve_node(snap, name);
  if (!n.ok()) return n.error();
  const Node& node = snap.topo->node(*n);
  Json page = node_json(snap, *n);
  const std::string guid = format_guid(node.guid);

  std::map<PortNum, Json> marks;
  Json marked = ports_json(snap, /*unhealthy_only=*/true);  // named: a temporary's ["ports"] would dangle below
  for (Json& row : marked["ports"]) {
    if (row["node_guid"] != guid) continue;
    // The key first: Json's operator= takes its argument by value, so the move would run before the lookup.
    const auto port = row["port"].get<PortNum>();
    marks[port] = std::move(row);
  }
  std::map<PortNum, Json> counters;
  if (auto c = counters_json(snap, guid, /*errors_only=*/false); c.ok()) {
    for (Json& row : (*c)["ports"]) {
      const auto port = row["port"].get<PortNum>();
      counters[port] = std::move(row);
    }
  }
  const auto pkeys_of = [&](PortNum p) {
    Json out = Json::array();
    if (!snap.partitions) return out;
    const auto it = snap.partitions->ports.find(PortKey{node.guid, p});
    if (it == snap.partitions->ports.end()) return out;
    for (PKey k : it->second.table) {
      if (k == 0) continue;
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%04x", static_cast<unsigned>(k));
      std::string text = hex;
      if (snap.partition_policy) {
        for (const PartitionSpec& part : snap.partition_policy->partitions) {
          if (part.pkey == (k & 0x7fff)) text += " (" + part.name + ")";
        }
      }
      out.push_back(text);
    }
    return out;
  };
  for (Json& pj : page["ports"]) {
    const auto p = pj["port"].get<PortNum>();
    pj["mark"] = marks.contains(p) ? std::move(marks[p]) : Json(nullptr);
    pj["counters"] = counters.contains(p) ? std::move(counters[p]) : Json(nullptr);
    pj["pkeys"] = pkeys_of(p);
  }
  // A switch's management port (port 0) is its endport: its P_Keys are the switch's own.
  if (node.is_switch()) page["port0_pkeys"] = pkeys_of(0);
  Json drained = Json::array();
  for (const DrainedPartView& d : snap.drained) {
    if (d.part.node_guid == node.guid)
      drained.push_back({{"port", d.part.port}, {"what", d.what}, {"forced", d.forced}});
  }
  page["drained"] = std::move(drained);
  return page;
}

}  // namespace smd::control
