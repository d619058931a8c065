#include "routing/roce/clos_plan.h"

#include <algorithm>
#include <deque>
#include <map>
#include <numeric>

#include "routing/roce/bgp_fib.h"
#include "routing/roce/switch_names.h"

namespace smd::roce {

std::string format_ipv4(std::uint32_t a) {
  return std::to_string(a >> 24) + "." + std::to_string((a >> 16) & 0xFF) + "." + std::to_string((a >> 8) & 0xFF) +
         "." + std::to_string(a & 0xFF);
}

std::string format_prefix(const Ipv4Prefix& p) { return format_ipv4(p.addr) + "/" + std::to_string(p.len); }

namespace {

std::uint64_t port_key(NodeIndex ca, PortNum port) { return (static_cast<std::uint64_t>(ca) << 8) | port; }

std::uint64_t pool_size(const Ipv4Prefix& p) { return std::uint64_t{1} << (32 - p.len); }

/// Tier of every switch: hops to the nearest switch with hosts (multi-source BFS); kNoTier if none.
std::vector<std::uint8_t> tiers(const SwitchGraph& g, const std::vector<std::uint8_t>& is_leaf) {
  std::vector<std::uint8_t> tier(g.num_switches(), kNoTier);
  std::deque<SwitchIndex> queue;
  for (SwitchIndex s = 0; s < g.num_switches(); ++s) {
    if (is_leaf[s]) {
      tier[s] = 0;
      queue.push_back(s);
    }
  }
  while (!queue.empty()) {
    const SwitchIndex s = queue.front();
    queue.pop_front();
    for (const auto& l : g.links(s)) {
      if (tier[l.peer] == kNoTier && tier[s] + 1 < kNoTier) {
        tier[l.peer] = static_cast<std::uint8_t>(tier[s] + 1);
        queue.push_back(l.peer);
      }
    }
  }
  return tier;
}

SwitchIndex find_root(std::vector<SwitchIndex>& parent, SwitchIndex x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

/// RFC 7938 section 5.2.1 shape, generalised to any number of tiers: a leaf has an ASN of its own; the
/// tier-t switches (t >= 1) share an ASN when they are connected through switches of tier <= t (the
/// spines of a 2-tier Clos: one ASN; the aggregation switches of one pod of a 3-tier Clos: one ASN per
/// pod; the top tier: one ASN). Sharing makes BGP's own-AS rule refuse "valley" paths (leaf->agg->core->
/// agg of the same pod; bgp_fib.h). A switch cabled to another switch of its own tier (not a Clos) gets
/// an ASN of its own: two cabled switches in one AS would make an iBGP session, which the plan does not
/// model. Switches with no leaf reachable get their own ASN in tier kNoTier's block.
std::vector<std::uint32_t> assign_asns(const SwitchGraph& g, const std::vector<std::uint8_t>& tier) {
  const std::size_t n = g.num_switches();
  std::vector<std::uint32_t> asn(n, 0);
  std::map<unsigned, std::uint32_t> next_in_tier;
  auto fresh = [&](unsigned t) { return kPrivateAsnBase + t * kAsnTierStride + next_in_tier[t]++; };
  std::uint8_t top = 0;
  for (auto t : tier)
    if (t != kNoTier) top = std::max(top, t);
  for (SwitchIndex s = 0; s < n; ++s) {
    if (tier[s] == 0) asn[s] = fresh(0);
  }
  std::vector<std::uint8_t> same_tier_cable(n, 0);
  for (SwitchIndex s = 0; s < n; ++s) {
    for (const auto& l : g.links(s)) same_tier_cable[s] |= l.peer != s && tier[l.peer] == tier[s];
  }
  for (unsigned t = 1; t <= top; ++t) {
    std::vector<SwitchIndex> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    for (SwitchIndex s = 0; s < n; ++s) {
      if (tier[s] > t) continue;
      for (const auto& l : g.links(s)) {
        if (tier[l.peer] <= t) parent[find_root(parent, s)] = find_root(parent, l.peer);
      }
    }
    std::unordered_map<SwitchIndex, std::uint32_t> group_asn;
    for (SwitchIndex s = 0; s < n; ++s) {
      if (tier[s] != t) continue;
      if (same_tier_cable[s]) {
        asn[s] = fresh(t);
        continue;
      }
      const SwitchIndex r = find_root(parent, s);
      auto it = group_asn.find(r);
      if (it == group_asn.end()) it = group_asn.emplace(r, fresh(t)).first;
      asn[s] = it->second;
    }
  }
  for (SwitchIndex s = 0; s < n; ++s) {
    if (tier[s] == kNoTier) asn[s] = fresh(kNoTier);
  }
  return asn;
}

/// Smallest prefix length (at most /24) holding `hosts` hosts plus network, gateway and broadcast.
std::uint8_t host_prefix_len(std::size_t hosts) {
  std::uint8_t len = 24;
  while (len > 0 && pool_size(Ipv4Prefix{0, len}) < hosts + 3) --len;
  return len;
}

}  // namespace

void RoutePlan::note_own_as_rule(RoutePlan& plan) {
  const std::size_t n = plan.switches_.size();
  std::size_t shortest = 0, refused_loopbacks = 0, refused_hosts = 0, other_hosts = 0;
  for (SwitchIndex s = 0; s < n; ++s) {
    for (SwitchIndex d = 0; d < n; ++d) {
      const auto min_hop = plan.min_hop_.group(s, d);
      const auto bgp = plan.fib_.group(s, d);
      if (s == d || min_hop.empty()) continue;
      const bool leaf = plan.switches_[d].has_hosts;
      shortest += leaf ? 2 : 1;
      if (bgp.empty()) {
        ++refused_loopbacks;
        refused_hosts += leaf;
      } else if (leaf && !std::equal(bgp.begin(), bgp.end(), min_hop.begin(), min_hop.end())) {
        ++other_hosts;
      }
    }
  }
  if (refused_loopbacks) {
    plan.notes_.push_back("BGP's own-AS rule: " + std::to_string(refused_loopbacks + refused_hosts) + " of " +
                          std::to_string(shortest) + " shortest-path routes (" + std::to_string(refused_loopbacks) +
                          " loopbacks, " + std::to_string(refused_hosts) +
                          " host prefixes) are refused because every path to them crosses the receiver's own "
                          "AS; routes lists what BGP installs");
  }
  if (other_hosts) {
    plan.notes_.push_back(std::to_string(other_hosts) +
                          " host-prefix routes use other next hops than the shortest paths (own-AS rule on a "
                          "fabric that is not a Clos); routes lists what BGP installs");
  }
}

long RoutePlan::host_index(NodeIndex ca, PortNum port) const {
  auto it = host_by_port_.find(port_key(ca, port));
  return it == host_by_port_.end() ? -1 : static_cast<long>(it->second);
}

std::vector<NextHop> RoutePlan::nexthops(SwitchIndex s, SwitchIndex dest) const {
  std::vector<NextHop> out;
  for (PortNum p : fib_.group(s, dest)) {
    NextHop nh{p, graph_.peer_switch(s, p), 0};
    for (const auto& itf : switches_[s].interfaces) {
      if (itf.port == p) nh.neighbor_ip = itf.peer_ip;
    }
    out.push_back(nh);
  }
  return out;
}

namespace {

/// Host ports of one leaf: (leaf port, CA), in leaf port order (the order hosts get their addresses in).
using LeafHosts = std::vector<std::pair<PortNum, NodeIndex>>;

/// [switch] its host ports; a note in `notes` for CA-to-CA cables, which get no address.
std::vector<LeafHosts> hosts_on_switches(const Topology& topo, const SwitchGraph& g, std::vector<std::string>& notes) {
  const std::size_t n = g.num_switches();
  std::vector<LeafHosts> hosts_on(n);
  std::size_t ca_links = 0;
  for (SwitchIndex s = 0; s < n; ++s) {
    for (PortNum p = 1; p <= g.num_ports(s); ++p) {
      const NodeIndex peer = g.peer_node(s, p);
      if (peer != kNoNode && g.index_of(peer) == kNoSwitch) hosts_on[s].emplace_back(p, peer);
    }
  }
  for (NodeIndex ca : topo.cas()) {
    for (const Port& port : topo.node(ca).ports) {
      if (port.connected() && !topo.node(port.peer).is_switch()) ++ca_links;
    }
  }
  if (ca_links) {
    notes.push_back(std::to_string(ca_links / 2) +
                    " CA-to-CA cable(s) left out: only ports cabled to a switch get addresses");
  }
  return hosts_on;
}

}  // namespace

Status RoutePlan::address_switches(RoutePlan& plan, const Topology& topo, const std::vector<LeafHosts>& hosts_on,
                                   const std::vector<std::uint8_t>& tier, const std::vector<std::uint32_t>& asn) {
  const SwitchGraph& g = plan.graph_;
  const std::size_t n = g.num_switches();
  plan.switches_.resize(n);
  std::vector<std::string> descriptions(n);
  std::vector<Guid> guids(n);
  for (SwitchIndex s = 0; s < n; ++s) {
    descriptions[s] = topo.node(g.node(s)).description;
    guids[s] = topo.node(g.node(s)).guid;
  }
  auto hostnames = switch_names(descriptions, guids);
  std::uint64_t next_host = kHostPool.addr;
  const std::uint64_t host_end = kHostPool.addr + pool_size(kHostPool);
  for (SwitchIndex s = 0; s < n; ++s) {
    SwitchPlan& sp = plan.switches_[s];
    sp.node = g.node(s);
    sp.guid = guids[s];
    sp.name = std::move(descriptions[s]);
    sp.hostname = std::move(hostnames[s]);
    sp.asn = asn[s];
    sp.tier = tier[s];
    sp.loopback = kLoopbackPool.addr + s;
    if (hosts_on[s].empty()) continue;
    // Aligned allocation: a prefix of length len starts on a multiple of its size.
    const std::uint8_t len = host_prefix_len(hosts_on[s].size());
    const std::uint64_t size = pool_size(Ipv4Prefix{0, len});
    next_host = (next_host + size - 1) / size * size;
    if (next_host + size > host_end) {
      return make_error(ErrorCode::kInvalidInput, "host prefixes exceed the pool " + format_prefix(kHostPool));
    }
    sp.has_hosts = true;
    sp.host_prefix = Ipv4Prefix{static_cast<std::uint32_t>(next_host), len};
    sp.gateway = static_cast<std::uint32_t>(next_host + 1);
    std::uint32_t ip = sp.gateway + 1;
    for (const auto& [p, ca] : hosts_on[s]) {
      plan.host_by_port_[port_key(ca, g.peer_port(s, p))] = static_cast<std::uint32_t>(plan.hosts_.size());
      plan.hosts_.push_back(HostPlan{ca, g.peer_port(s, p), topo.node(ca).description, ip++, s, p});
    }
    next_host += size;
  }
  return Ok{};
}

Status RoutePlan::address_cables(RoutePlan& plan) {
  const SwitchGraph& g = plan.graph_;
  std::uint64_t next_p2p = kP2pPool.addr;
  const std::uint64_t p2p_end = kP2pPool.addr + pool_size(kP2pPool);
  for (SwitchIndex s = 0; s < g.num_switches(); ++s) {
    for (const auto& l : g.links(s)) {
      const PortNum pp = g.peer_port(s, l.port);
      const bool lower_end = s < l.peer || (s == l.peer && l.port < pp);
      if (!lower_end) continue;
      if (next_p2p + 2 > p2p_end) {
        return make_error(ErrorCode::kInvalidInput, "switch cables exceed the /31 pool " + format_prefix(kP2pPool));
      }
      const auto a = static_cast<std::uint32_t>(next_p2p);
      plan.switches_[s].interfaces.push_back(Interface{l.port, a, a + 1, l.peer, pp});
      plan.switches_[l.peer].interfaces.push_back(Interface{pp, a + 1, a, s, l.port});
      next_p2p += 2;
    }
  }
  for (auto& sp : plan.switches_) {
    std::sort(sp.interfaces.begin(), sp.interfaces.end(),
              [](const Interface& x, const Interface& y) { return x.port < y.port; });
  }
  return Ok{};
}

void RoutePlan::install_routes(RoutePlan& plan, const std::vector<std::uint32_t>& asn) {
  const std::size_t n = plan.switches_.size();
  std::vector<std::uint32_t> router_id(n);
  for (SwitchIndex s = 0; s < n; ++s) router_id[s] = plan.switches_[s].loopback;
  plan.fib_ = bgp_fib(plan.graph_, asn, router_id);
  for (SwitchIndex s = 0; s < n; ++s) {
    auto& routes = plan.switches_[s].routes;
    for (SwitchIndex d = 0; d < n; ++d) {
      if (d == s || plan.fib_.group(s, d).empty()) continue;
      routes.push_back(Route{Ipv4Prefix{plan.switches_[d].loopback, 32}, d, true});
      if (plan.switches_[d].has_hosts) routes.push_back(Route{plan.switches_[d].host_prefix, d, false});
    }
  }
}

Result<RoutePlan> RoutePlan::build(const Topology& topo) {
  RoutePlan plan;
  plan.graph_ = SwitchGraph::build(topo);
  const SwitchGraph& g = plan.graph_;
  const std::size_t n = g.num_switches();
  if (n > pool_size(kLoopbackPool)) {
    return make_error(ErrorCode::kInvalidInput,
                      std::to_string(n) + " switches exceed the loopback pool " + format_prefix(kLoopbackPool));
  }
  plan.hops_ = HopTable::build(g);
  plan.min_hop_ = EcmpTable::build(g, plan.hops_);

  const std::vector<LeafHosts> hosts_on = hosts_on_switches(topo, g, plan.notes_);
  std::vector<std::uint8_t> is_leaf(n, 0);
  for (SwitchIndex s = 0; s < n; ++s) is_leaf[s] = !hosts_on[s].empty();
  const auto tier = tiers(g, is_leaf);
  const auto asn = assign_asns(g, tier);
  if (auto st = address_switches(plan, topo, hosts_on, tier, asn); !st) return st.error();
  // One /31 per switch-to-switch cable, handed out in (switch, port) order from the lower end.
  if (auto st = address_cables(plan); !st) return st.error();
  // The FIB BGP installs, then its routes: every other switch's loopback and host prefix it learns.
  install_routes(plan, asn);
  note_own_as_rule(plan);
  return plan;
}

}  // namespace smd::roce
