// Test-side witnesses for the updn and ftree engine tests, written independently of the engines:
// LID assignment, LFT walks, a channel-dependency-graph cycle check, up*/down* turn check, shift and
// random-bisection (effective bisection bandwidth, Hoefler et al. 2008) link loads traced through the LFTs.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/model/vl_layers.h"

namespace smd::testing {

/// LIDs: switches first (1, 2, ...), then every cabled CA port with 2^lmc aligned LIDs.
inline LidMap assign_test_lids(const Topology& topo, unsigned lmc = 0) {
  LidMap lids;
  unsigned next = 1;
  for (NodeIndex s : topo.switches()) (void)lids.assign(s, 0, static_cast<Lid>(next++), 0);
  const unsigned step = 1u << lmc;
  for (NodeIndex c : topo.cas()) {
    for (PortNum p = 1; p <= topo.node(c).num_ports; ++p) {
      if (!topo.node(c).ports[p].connected()) continue;
      next = (next + step - 1) / step * step;
      (void)lids.assign(c, p, static_cast<Lid>(next), static_cast<std::uint8_t>(lmc));
      next += step;
    }
  }
  return lids;
}

/// A directed channel: (switch node, out port).
using Channel = std::pair<NodeIndex, PortNum>;

/// Follow `lid` from switch `from`. Returns the channels taken (switch-to-switch and the final delivery
/// channel), or an error string. Delivery: CA LID -> the port cabled to the owning CA port; switch LID -> 0.
struct Route {
  std::vector<Channel> hops;  ///< switch -> switch channels, in order
  std::vector<NodeIndex> switches;
  std::string error;
};
inline Route walk(const Topology& topo, const LidMap& lids, const RoutingTables& t, NodeIndex from, Lid lid) {
  Route r;
  const auto owner = lids.owner(lid);
  if (!owner) return r.error = "unowned LID", r;
  NodeIndex s = from;
  for (std::size_t step = 0; step <= topo.switches().size(); ++step) {
    r.switches.push_back(s);
    const PortNum p = t.lft[s].get(lid);
    if (p == 0) {
      if (owner->node != s) r.error = "port 0 at wrong switch";
      return r;
    }
    if (p == kNoPort || p > topo.node(s).num_ports) return r.error = "black hole", r;
    const Port& port = topo.node(s).ports[p];
    if (!port.connected()) return r.error = "uncabled port", r;
    if (!topo.node(port.peer).is_switch()) {
      if (port.peer != owner->node || port.peer_port != owner->port) r.error = "delivered to wrong CA";
      return r;
    }
    r.hops.emplace_back(s, p);
    s = port.peer;
  }
  r.error = "loop";
  return r;
}

/// Every switch reaches every LID. Returns "" or the first failure.
inline std::string check_all_reach(const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  for (const auto& e : lids.entries()) {
    for (unsigned k = 0; k < (1u << e.lmc); ++k) {
      const Lid lid = static_cast<Lid>(e.base + k);
      for (NodeIndex s : topo.switches()) {
        const Route r = walk(topo, lids, t, s, lid);
        if (!r.error.empty()) return topo.node(s).description + " -> LID " + std::to_string(lid) + ": " + r.error;
      }
    }
  }
  return "";
}

/// Kahn's sort: true when every channel of the dependency graph `deps` can be removed in topological order.
inline bool kahn_acyclic(std::map<Channel, std::set<Channel>>& deps) {
  std::map<Channel, int> indeg;
  for (const auto& [c, out] : deps) {
    indeg[c];
    for (const auto& d : out) ++indeg[d];
  }
  std::vector<Channel> ready;
  for (const auto& [c, n] : indeg) {
    if (n == 0) ready.push_back(c);
  }
  std::size_t removed = 0;
  while (!ready.empty()) {
    const Channel c = ready.back();
    ready.pop_back();
    ++removed;
    for (const auto& d : deps[c]) {
      if (--indeg[d] == 0) ready.push_back(d);
    }
  }
  return removed == indeg.size();
}

/// A switch port is cabled to a CA or router (where host traffic enters the fabric).
inline bool has_ca(const Topology& topo, NodeIndex s) {
  const Node& n = topo.node(s);
  for (PortNum p = 1; p <= n.num_ports; ++p) {
    if (n.ports[p].connected() && !topo.node(n.ports[p].peer).is_switch()) return true;
  }
  return false;
}

/// Channel dependency graph over the routes from every switch to every LID (a dependency c1 -> c2 when a
/// route takes c2 right after c1, delivery channels excluded since they wait on nothing); true if acyclic.
/// ca_sources_only: only the routes from switches with CAs (host-injected traffic).
inline bool cdg_acyclic(const Topology& topo, const LidMap& lids, const RoutingTables& t,
                        bool ca_sources_only = false) {
  std::map<Channel, std::set<Channel>> deps;
  for (const auto& e : lids.entries()) {
    for (unsigned k = 0; k < (1u << e.lmc); ++k) {
      for (NodeIndex s : topo.switches()) {
        if (ca_sources_only && !has_ca(topo, s)) continue;
        const Route r = walk(topo, lids, t, s, static_cast<Lid>(e.base + k));
        for (std::size_t i = 0; i + 1 < r.hops.size(); ++i) deps[r.hops[i]].insert(r.hops[i + 1]);
        for (const auto& h : r.hops) deps[h];
      }
    }
  }
  return kahn_acyclic(deps);
}

/// Hop distances between every two switches, by BFS over the topology's switch cables: [from][to].
inline std::map<NodeIndex, std::map<NodeIndex, unsigned>> switch_hops(const Topology& topo) {
  std::map<NodeIndex, std::map<NodeIndex, unsigned>> dist;
  for (NodeIndex s : topo.switches()) {
    auto& d = dist[s];
    std::vector<NodeIndex> queue{s};
    d[s] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const NodeIndex u = queue[head];
      for (const Port& p : topo.node(u).ports) {
        if (p.connected() && topo.node(p.peer).is_switch() && !d.count(p.peer)) {
          d[p.peer] = d[u] + 1;
          queue.push_back(p.peer);
        }
      }
    }
  }
  return dist;
}

/// Every (switch, LID) route of `t` on its layer (0 when t has no layering), dependencies grouped by
/// layer; true when every route delivers and a Kahn sort empties every layer's graph. `layers_seen` gets
/// the layers that carry at least one route. The check of VL-layered engines (dfsssp, lash).
inline bool every_layer_acyclic(const Topology& topo, const LidMap& lids, const RoutingTables& t,
                                std::set<unsigned>* layers_seen = nullptr) {
  std::map<unsigned, std::map<Channel, std::set<Channel>>> deps;
  for (const auto& e : lids.entries()) {
    for (unsigned k = 0; k < (1u << e.lmc); ++k) {
      const Lid lid = static_cast<Lid>(e.base + k);
      for (NodeIndex s : topo.switches()) {
        const auto r = walk(topo, lids, t, s, lid);
        if (!r.error.empty()) return false;
        const unsigned layer = t.layering ? t.layering->layer_of(s, lid) : 0;
        if (layers_seen) layers_seen->insert(layer);
        auto& g = deps[layer];
        for (std::size_t i = 0; i + 1 < r.hops.size(); ++i) g[r.hops[i]].insert(r.hops[i + 1]);
        for (const auto& h : r.hops) g[h];
      }
    }
  }
  for (auto& [layer, g] : deps) {
    if (!kahn_acyclic(g)) return false;
  }
  return true;
}

/// Switch the CA's first cabled port attaches to, with that port's base LID.
struct Endpoint {
  NodeIndex sw = kNoNode;
  Lid lid = 0;
};
inline Endpoint endpoint(const Topology& topo, const LidMap& lids, NodeIndex ca) {
  for (PortNum p = 1; p <= topo.node(ca).num_ports; ++p) {
    const Port& port = topo.node(ca).ports[p];
    if (port.connected()) return Endpoint{port.peer, lids.base_lid(ca, p)};
  }
  return {};
}

/// Loads of switch-to-switch channels for a set of (src CA, dst CA) flows; also returns each flow's path.
inline std::map<Channel, unsigned> trace_loads(const Topology& topo, const LidMap& lids, const RoutingTables& t,
                                               const std::vector<std::pair<NodeIndex, NodeIndex>>& flows,
                                               std::vector<std::vector<Channel>>* paths = nullptr) {
  std::map<Channel, unsigned> load;
  for (const auto& [a, b] : flows) {
    const Endpoint ea = endpoint(topo, lids, a);
    const Endpoint eb = endpoint(topo, lids, b);
    const Route r = walk(topo, lids, t, ea.sw, eb.lid);
    for (const auto& h : r.hops) ++load[h];
    if (paths) paths->push_back(r.hops);
  }
  return load;
}

/// Max switch-link load over every shift permutation i -> (i+k) mod N, k = 1..N-1, of `order`.
inline unsigned max_shift_load(const Topology& topo, const LidMap& lids, const RoutingTables& t,
                               const std::vector<NodeIndex>& order) {
  const std::size_t n = order.size();
  // Precompute each (src, dst) path once per shift: flows are independent, loads are per shift.
  unsigned worst = 0;
  for (std::size_t k = 1; k < n; ++k) {
    std::vector<std::pair<NodeIndex, NodeIndex>> flows;
    for (std::size_t i = 0; i < n; ++i) flows.emplace_back(order[i], order[(i + k) % n]);
    for (const auto& [c, l] : trace_loads(topo, lids, t, flows)) worst = std::max(worst, l);
  }
  return worst;
}

/// Effective bisection bandwidth: `rounds` random bisections (fixed seed) into pairs exchanging in both
/// directions; each flow gets 1 / (max load on its path, injection and delivery count 1); mean over flows.
inline double ebb(const Topology& topo, const LidMap& lids, const RoutingTables& t, unsigned rounds,
                  std::uint64_t seed = 42) {
  std::vector<NodeIndex> cas = topo.cas();
  std::mt19937_64 rng(seed);
  double sum = 0;
  std::size_t count = 0;
  for (unsigned r = 0; r < rounds; ++r) {
    std::shuffle(cas.begin(), cas.end(), rng);
    std::vector<std::pair<NodeIndex, NodeIndex>> flows;
    for (std::size_t i = 0; i + 1 < cas.size(); i += 2) {
      flows.emplace_back(cas[i], cas[i + 1]);
      flows.emplace_back(cas[i + 1], cas[i]);
    }
    std::vector<std::vector<Channel>> paths;
    const auto load = trace_loads(topo, lids, t, flows, &paths);
    for (const auto& p : paths) {
      unsigned m = 1;
      for (const auto& h : p) m = std::max(m, load.at(h));
      sum += 1.0 / m;
      ++count;
    }
  }
  return count ? sum / static_cast<double>(count) : 0.0;
}

}  // namespace smd::testing
