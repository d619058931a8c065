#include "routing/verify/updown_check.h"

#include <algorithm>
#include <numeric>

namespace smd {

LevelOrder LevelOrder::build(const Topology& topo, const SwitchGraph& graph) {
  const std::size_t n = graph.num_switches();
  LevelOrder order;
  order.has_ca.assign(n, 0);
  order.rank.assign(n, 0);
  std::vector<SwitchIndex> leaves;
  for (SwitchIndex s = 0; s < n; ++s) {
    for (PortNum p = 1; p <= graph.num_ports(s); ++p) {
      if (graph.peer_node(s, p) != kNoNode && graph.peer_switch(s, p) == kNoSwitch) order.has_ca[s] = 1;
    }
    if (order.has_ca[s]) leaves.push_back(s);
  }
  const std::vector<std::uint32_t> level = switch_distances(graph, leaves);  // kNoDistance sorts last
  std::vector<SwitchIndex> by_order(n);
  std::iota(by_order.begin(), by_order.end(), SwitchIndex{0});
  std::sort(by_order.begin(), by_order.end(), [&](SwitchIndex a, SwitchIndex b) {
    if (level[a] != level[b]) return level[a] < level[b];
    return topo.node(graph.node(a)).guid < topo.node(graph.node(b)).guid;
  });
  for (std::uint32_t r = 0; r < n; ++r) order.rank[by_order[r]] = r;
  return order;
}

RouteClass extend_route(const LevelOrder& order, SwitchIndex from, SwitchIndex to, RouteClass rest) {
  if (rest == RouteClass::kBroken || rest == RouteClass::kIllegal) return rest;
  if (order.up(from, to)) return RouteClass::kUpDown;                           // up, then a legal route: still legal
  return rest == RouteClass::kDown ? RouteClass::kDown : RouteClass::kIllegal;  // down then up is the turn
}

LidRouteCheck classify_lid_routes(const SwitchGraph& graph, const LevelOrder& order, const SwitchLfts& lfts, Lid lid,
                                  const LidTarget& dst, std::vector<RouteClass>& cls, std::vector<std::uint16_t>& hops,
                                  std::vector<SwitchIndex>& stack) {
  const std::size_t n = graph.num_switches();
  cls.assign(n, RouteClass::kUnknown);
  hops.resize(n);
  LidRouteCheck check;
  for (SwitchIndex start = 0; start < n; ++start) {
    if (cls[start] == RouteClass::kUnknown) {
      // Walk until a judged switch, a drop, a delivery or a switch already on this walk (a loop: every
      // switch on the stack then goes round it or into it, and is broken).
      stack.clear();
      SwitchIndex here = start;
      RouteClass tail = RouteClass::kBroken;  // the class of `here`'s route when the walk stops
      while (true) {
        const RouteClass c = cls[here];
        if (c == RouteClass::kOnStack) break;
        if (c != RouteClass::kUnknown) {
          tail = c;
          break;
        }
        SwitchIndex next = kNoSwitch;
        const LftHop hop = lft_hop(graph, here, lfts.out_port(here, lid), dst, next);
        if (hop != LftHop::kForward) {
          tail = hop == LftHop::kDelivered ? RouteClass::kDown : RouteClass::kBroken;
          cls[here] = tail;
          hops[here] = 0;
          break;
        }
        cls[here] = RouteClass::kOnStack;
        stack.push_back(here);
        here = next;
      }
      for (std::size_t i = stack.size(); i-- > 0;) {
        const SwitchIndex s = stack[i];
        const SwitchIndex to = i + 1 < stack.size() ? stack[i + 1] : here;
        tail = extend_route(order, s, to, tail);
        cls[s] = tail;
        hops[s] = static_cast<std::uint16_t>(hops[to] + 1);
      }
    }
    const RouteClass c = cls[start];
    if (c == RouteClass::kBroken && check.delivered) {
      check.delivered = false;
      check.first_broken = start;
    }
    if (c != RouteClass::kDown && c != RouteClass::kUpDown) {
      check.legal = false;
      if (order.has_ca[start]) check.ca_legal = false;
    }
  }
  return check;
}

std::vector<std::uint64_t> order_guids(const Topology& topo, const SwitchGraph& graph, const LevelOrder& order) {
  std::vector<std::uint64_t> out(graph.num_switches());
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) out[order.rank[s]] = topo.node(graph.node(s)).guid;
  return out;
}

std::uint8_t verdict_bits(const LidRouteCheck& check) {
  std::uint8_t v = kRouteProved;
  if (check.delivered) v |= kRouteDelivers;
  if (check.ca_legal) v |= kRouteCaLegal;
  if (check.legal) v |= kRouteLegal;
  return v;
}

void prove_lids(const SwitchGraph& graph, const LevelOrder& order, const SwitchLfts& lfts,
                const std::vector<LidTarget>& targets, std::span<const Lid> lids, std::vector<std::uint8_t>& verdict) {
  // Each chunk writes the verdicts of its own LIDs only (distinct bytes).
  parallel_for_chunks(
      lids.size(), 0,
      [&](std::size_t first, std::size_t last) {
        std::vector<RouteClass> cls;
        std::vector<std::uint16_t> hops;
        std::vector<SwitchIndex> stack;
        for (std::size_t i = first; i < last; ++i) {
          const Lid lid = lids[i];
          verdict[lid] = verdict_bits(classify_lid_routes(graph, order, lfts, lid, targets[lid], cls, hops, stack));
        }
      },
      64);
}

RouteProof prove_tables(const Topology& topo, const RoutingTables& tables, const LidMap& lids) {
  const SwitchGraph graph = SwitchGraph::build(topo);
  const LevelOrder order = LevelOrder::build(topo, graph);
  const std::vector<LidTarget> targets = lid_targets(topo, graph, lids);
  const SwitchLfts lfts(graph, tables);
  RouteProof proof = start_proof(topo, graph, order, targets);
  std::vector<Lid> routable;
  for (Lid lid = 1; lid < targets.size(); ++lid) {
    if (targets[lid].sw != kNoSwitch) routable.push_back(lid);
  }
  prove_lids(graph, order, lfts, targets, routable, proof.verdict);
  return proof;
}

RouteProof start_proof(const Topology& topo, const SwitchGraph& graph, const LevelOrder& order,
                       const std::vector<LidTarget>& targets) {
  RouteProof proof;
  proof.order = order_guids(topo, graph, order);
  proof.verdict.assign(targets.size(), 0);
  proof.dst_switch.assign(targets.size(), 0);
  proof.dst_port.assign(targets.size(), 0);
  for (std::size_t lid = 1; lid < targets.size(); ++lid) {
    if (targets[lid].sw == kNoSwitch) continue;
    proof.dst_switch[lid] = topo.node(graph.node(targets[lid].sw)).guid;
    proof.dst_port[lid] = targets[lid].port;
  }
  return proof;
}

}  // namespace smd
