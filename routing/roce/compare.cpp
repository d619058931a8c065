#include "routing/roce/compare.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "routing/flow_trace.h"
#include "routing/roce/ecmp_hash.h"
#include "routing/roce/maxmin.h"

namespace smd::roce {
namespace {

enum Scheme : unsigned { kStatic = 0, kAdaptive = 1, kEcmp = 2, kNumSchemes = 3 };
constexpr const char* kSchemeNames[kNumSchemes] = {"ib-static", "ib-adaptive", "roce-ecmp"};

/// splitmix64 finalizer (Steele, Lea, Flood 2014): a cheap, well-mixed function of the flow identity, so a
/// flow's source port depends only on (instance seed, flow, QP), never on thread scheduling.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Everything the per-instance evaluation reads; shared read-only between threads.
struct Context {
  const FlowTracer& tracer;
  const RoutePlan& plan;
  const AdaptivePlan* adaptive;  // null: min-hop ECMP sets stand in for the AR groups
  const CompareOptions& options;
  std::vector<std::uint32_t> ip;        // [endpoint] IPv4 address
  std::vector<std::uint32_t> sw_seed;   // [switch] ECMP hash seed
  std::vector<std::uint8_t> sw_offset;  // [switch] hash bit offset
  std::size_t num_channels = 0;
};

/// Sums over one instance; aggregated per (pattern, scheme) afterwards.
struct InstanceFigures {
  double max_load = 0;
  double max_switch_load = 0;
  double bottleneck_sum = 0;
  double maxmin_sum = 0;
  std::uint64_t collisions = 0;
  std::uint64_t flows = 0;
  std::uint64_t unrouted = 0;
};

/// RoCE: hash at every switch; the last switch delivers on the host port.
bool walk_ecmp(const Context& ctx, std::uint32_t src, std::uint32_t dst, std::uint16_t sport,
               std::vector<std::uint32_t>& path) {
  const auto& g = ctx.tracer.graph();
  const Endpoint& from = ctx.tracer.endpoints()[src];
  const Endpoint& to = ctx.tracer.endpoints()[dst];
  const FiveTuple tuple{ctx.ip[src], ctx.ip[dst], kIpProtoUdp, sport, kRoceUdpPort};
  path.push_back(static_cast<std::uint32_t>(g.num_slots() + src));
  SwitchIndex s = from.sw;
  for (std::size_t hops = 0; hops <= g.num_switches(); ++hops) {
    if (s == to.sw) {
      path.push_back(g.slot(s, to.sw_port));
      return true;
    }
    const auto group = ctx.plan.fib().group(s, to.sw);
    if (group.empty()) return false;
    const PortNum p =
        group[pick_member(hash_offset(hash_five_tuple(tuple, ctx.sw_seed[s]), ctx.sw_offset[s]), group.size())];
    path.push_back(g.slot(s, p));
    s = g.peer_switch(s, p);
  }
  return false;
}

/// IB AR: least-loaded member at every hop; ties go to the static LFT port (what an idle AR switch
/// forwards on), else the lowest port.
bool walk_adaptive(const Context& ctx, std::uint32_t src, std::uint32_t dst, const std::vector<double>& load,
                   std::vector<std::uint32_t>& path) {
  const auto& g = ctx.tracer.graph();
  const Endpoint& from = ctx.tracer.endpoints()[src];
  const Endpoint& to = ctx.tracer.endpoints()[dst];
  path.push_back(static_cast<std::uint32_t>(g.num_slots() + src));
  SwitchIndex s = from.sw;
  for (std::size_t hops = 0; hops <= g.num_switches(); ++hops) {
    if (s == to.sw) {
      path.push_back(g.slot(s, to.sw_port));
      return true;
    }
    std::span<const PortNum> group;
    if (ctx.adaptive) {
      const auto* members = ctx.adaptive->group(g.node(s), to.lid);
      if (members) group = *members;
    } else {
      group = ctx.plan.fib().group(s, to.sw);
    }
    if (group.empty()) return false;
    const PortNum fixed = ctx.tracer.out_port(s, to.lid);
    PortNum best = kNoPort;
    double best_load = 0;
    for (PortNum p : group) {
      if (p == 0 || p > g.num_ports(s)) continue;
      const double l = load[g.slot(s, p)];
      if (best == kNoPort || l < best_load || (l == best_load && p == fixed)) {
        best = p;
        best_load = l;
      }
    }
    if (best == kNoPort) return false;
    path.push_back(g.slot(s, best));
    s = g.peer_switch(s, best);
    if (s == kNoSwitch) return false;
  }
  return false;
}

InstanceFigures evaluate(const Context& ctx, const PatternInstance& inst, Scheme scheme) {
  const unsigned qps = scheme == kStatic ? 1 : std::max(1u, ctx.options.qps);
  const double weight = 1.0 / qps;
  const auto& flows = inst.flows;
  // Sub-flows (one per QP) of the routed flows, in compressed form; owner = index into flows.
  std::vector<std::uint32_t> offsets{0};
  std::vector<std::uint32_t> channels;
  std::vector<std::uint32_t> owner;
  std::vector<std::uint8_t> routed(flows.size(), 0);
  offsets.reserve(flows.size() * qps + 1);
  owner.reserve(flows.size() * qps);
  channels.reserve(flows.size() * qps * 6);
  std::vector<double> load(ctx.num_channels, 0.0);
  std::vector<std::uint32_t> flows_on(ctx.num_channels, 0);
  std::vector<std::uint32_t> last_flow(ctx.num_channels, 0xFFFFFFFFu);
  std::vector<std::uint32_t> path;
  InstanceFigures r;
  r.flows = flows.size();

  std::vector<std::uint32_t> order;
  if (scheme == kAdaptive) order = seeded_shuffle(flows.size(), mix(inst.seed ^ 0xA5A5A5A5u));
  for (std::size_t i = 0; i < flows.size(); ++i) {
    const std::uint32_t f = order.empty() ? static_cast<std::uint32_t>(i) : order[i];
    const std::size_t mark = channels.size();
    const std::size_t sub_mark = owner.size();
    bool ok = true;
    for (unsigned q = 0; q < qps && ok; ++q) {
      path.clear();
      if (scheme == kStatic) {
        ok = ctx.tracer.trace(flows[f].src, flows[f].dst, path);
      } else if (scheme == kEcmp) {
        const auto sport = static_cast<std::uint16_t>(0xC000u | (mix(mix(inst.seed) + f * 64ull + q) & 0x3FFFu));
        ok = walk_ecmp(ctx, flows[f].src, flows[f].dst, sport, path);
      } else {
        ok = walk_adaptive(ctx, flows[f].src, flows[f].dst, load, path);
        // Later flows see this one's load while choosing.
        if (ok)
          for (std::uint32_t c : path) load[c] += weight;
      }
      channels.insert(channels.end(), path.begin(), path.end());
      offsets.push_back(static_cast<std::uint32_t>(channels.size()));
      owner.push_back(f);
    }
    if (!ok) {
      if (scheme == kAdaptive) {  // take back the QPs already placed
        for (std::size_t j = mark; j + path.size() < channels.size(); ++j) load[channels[j]] -= weight;
      }
      channels.resize(mark);
      offsets.resize(sub_mark + 1);
      owner.resize(sub_mark);
      ++r.unrouted;
      continue;
    }
    routed[f] = 1;
    // Loads (already added while placing for AR) and distinct flows per cable, QPs of a flow counted once.
    for (std::size_t j = mark; j < channels.size(); ++j) {
      const std::uint32_t c = channels[j];
      if (scheme != kAdaptive) load[c] += weight;
      if (last_flow[c] != f) {
        last_flow[c] = f;
        ++flows_on[c];
      }
    }
  }
  for (std::size_t c = 0; c < ctx.num_channels; ++c) {
    r.max_load = std::max(r.max_load, load[c]);
    if (ctx.tracer.is_switch_link(static_cast<std::uint32_t>(c)))
      r.max_switch_load = std::max(r.max_switch_load, load[c]);
  }
  const auto rates = maxmin_rates(offsets, channels, ctx.num_channels);
  std::vector<std::uint8_t> collided(flows.size(), 0);
  for (std::size_t sub = 0; sub + 1 < offsets.size(); ++sub) {
    double worst = 0;
    for (std::uint32_t j = offsets[sub]; j < offsets[sub + 1]; ++j) {
      const std::uint32_t c = channels[j];
      worst = std::max(worst, load[c]);
      if (flows_on[c] >= 2 && ctx.tracer.is_switch_link(c)) collided[owner[sub]] = 1;
    }
    if (worst > 0) r.bottleneck_sum += weight / worst;
    r.maxmin_sum += rates[sub];
  }
  for (std::size_t f = 0; f < flows.size(); ++f) r.collisions += routed[f] && collided[f];
  return r;
}

}  // namespace

std::vector<std::uint32_t> compare_endpoints(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                             const RoutePlan& plan) {
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  std::vector<std::uint32_t> out;
  for (const auto& e : tracer.endpoints()) {
    const long h = plan.host_index(e.ca, e.port);
    out.push_back(h < 0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(h));
  }
  return out;
}

Result<Comparison> compare_schemes(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                   const RoutePlan& plan, const CompareOptions& options) {
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  const std::size_t n = tracer.endpoints().size();
  if (n < 2) return make_error(ErrorCode::kInvalidInput, "fewer than 2 endpoints with a LID cabled to a switch");
  for (const auto& p : options.patterns.pairs) {
    if (p.src >= n || p.dst >= n || p.src == p.dst) {
      return make_error(ErrorCode::kInvalidInput, "pair " + std::to_string(p.src) + " -> " + std::to_string(p.dst) +
                                                      ": endpoint out of range (0.." + std::to_string(n - 1) +
                                                      ") or a host sending to itself");
    }
  }
  Comparison out;
  out.endpoints = n;
  out.qps = std::max(1u, options.qps);
  Context ctx{tracer, plan, tables.adaptive.get(), options, {}, {}, {}, tracer.num_channels()};
  for (const auto& e : tracer.endpoints()) {
    const long h = plan.host_index(e.ca, e.port);
    ctx.ip.push_back(h < 0 ? 0 : plan.hosts()[static_cast<std::size_t>(h)].ip);
  }
  for (SwitchIndex s = 0; s < tracer.graph().num_switches(); ++s) {
    ctx.sw_seed.push_back(options.per_switch_hash_seed ? switch_hash_seed(options.hash_seed, s) : options.hash_seed);
    const unsigned tier = plan.switches()[s].tier;
    ctx.sw_offset.push_back(static_cast<std::uint8_t>(options.per_switch_hash_seed ? tier_hash_offset(tier) : 0));
  }
  if (!ctx.adaptive) {
    out.notes.push_back(
        "ib-adaptive: the tables carry no AdaptivePlan (routing.adaptive off); AR groups are the "
        "min-hop next-hop sets, up/down-legal on a Clos or fat tree, not checked elsewhere");
  }
  if (out.qps > 1) out.notes.push_back("ib-static: one path per destination LID, QPs do not change it");

  const auto patterns = make_patterns(n, options.patterns);
  struct Unit {
    std::size_t pattern, instance;
    Scheme scheme;
    std::size_t flows;
  };
  std::vector<Unit> units;
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    for (std::size_t i = 0; i < patterns[p].instances.size(); ++i) {
      for (unsigned s = 0; s < kNumSchemes; ++s) {
        units.push_back(Unit{p, i, static_cast<Scheme>(s), patterns[p].instances[i].flows.size()});
      }
    }
  }
  // Largest first so that one big all-to-all instance does not run alone at the end.
  std::vector<std::size_t> by_size(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) by_size[i] = i;
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](std::size_t a, std::size_t b) { return units[a].flows > units[b].flows; });
  std::vector<InstanceFigures> figures(units.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t k = next++; k < by_size.size(); k = next++) {
      const Unit& u = units[by_size[k]];
      figures[by_size[k]] = evaluate(ctx, patterns[u.pattern].instances[u.instance], u.scheme);
    }
  };
  unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, units.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  for (std::size_t p = 0; p < patterns.size(); ++p) {
    PatternResult pr;
    pr.name = patterns[p].name;
    pr.instances = patterns[p].instances.size();
    for (unsigned s = 0; s < kNumSchemes; ++s) {
      SchemeFigures sf;
      sf.name = kSchemeNames[s];
      if (s == kAdaptive && !ctx.adaptive) sf.note = "AR groups = min-hop sets (no AdaptivePlan)";
      double max_sum = 0, bottleneck = 0, maxmin = 0;
      std::uint64_t collisions = 0;
      for (std::size_t u = 0; u < units.size(); ++u) {
        if (units[u].pattern != p || units[u].scheme != s) continue;
        const auto& f = figures[u];
        sf.max_link_load = std::max(sf.max_link_load, f.max_load);
        sf.max_switch_link_load = std::max(sf.max_switch_link_load, f.max_switch_load);
        max_sum += f.max_load;
        bottleneck += f.bottleneck_sum;
        maxmin += f.maxmin_sum;
        collisions += f.collisions;
        sf.flows += f.flows;
        sf.unrouted += f.unrouted;
      }
      if (pr.instances) sf.mean_max_link_load = max_sum / static_cast<double>(pr.instances);
      if (sf.flows) {
        const auto flows = static_cast<double>(sf.flows);
        sf.mean_bottleneck_share = bottleneck / flows;
        sf.maxmin_throughput = maxmin / flows;
        sf.collision_share = static_cast<double>(collisions) / flows;
      }
      pr.schemes.push_back(std::move(sf));
    }
    out.patterns.push_back(std::move(pr));
  }
  return out;
}

}  // namespace smd::roce
