#include "routing/roce/scheme_eval.h"

#include <algorithm>
#include <limits>

#include "routing/model/enum_names.h"
#include "routing/model/lft_walk.h"
#include "routing/roce/ecmp_hash.h"
#include "routing/roce/maxmin.h"

namespace smd::roce {
namespace {

/// splitmix64 finalizer (Steele, Lea, Flood 2014): a cheap, well-mixed function of the flow identity, so a
/// flow's source port depends only on (instance seed, flow, QP), never on thread scheduling.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Hash term of a 4-byte address at key bytes first..first+3.
std::uint32_t address_term(std::uint32_t ip, std::size_t first) {
  std::uint32_t t = 0;
  for (std::size_t i = 0; i < 4; ++i) t ^= key_byte_term(first + i, static_cast<std::uint8_t>(ip >> (24 - 8 * i)));
  return t;
}

/// How many flows ahead the adaptive scheme fetches the table rows of the flow it will place.
constexpr std::size_t kPrefetchDistance = 4;
/// Rows up to this many switches are fetched whole (a few cache lines); longer ones only where the walk starts.
constexpr std::size_t kWholeRowSwitches = 512;
constexpr std::size_t kCacheLine = 64;

}  // namespace

const char* scheme_name(Scheme scheme) {
  static constexpr std::pair<Scheme, const char*> kNames[] = {{Scheme::kStatic, "ib-static"},
                                                              {Scheme::kAdaptive, "ib-adaptive"},
                                                              {Scheme::kEcmp, "roce-ecmp"},
                                                              {Scheme::kEcmpQp, "roce-eecmp"},
                                                              {Scheme::kSpray, "roce-spray"}};
  return enum_name(scheme, kNames);
}

SchemeEvaluator::SchemeEvaluator(const FlowTracer& tracer, const RoutePlan& plan, const AdaptivePlan* adaptive,
                                 const EvalOptions& options)
    : tracer_(tracer),
      adaptive_(adaptive),
      qps_(std::max(1u, options.qps)),
      eecmp_qps_(std::max(1u, options.eecmp_qps)),
      num_switches_(tracer.graph().num_switches()),
      num_channels_(tracer.num_channels()),
      groups_(plan.fib()),
      min_hop_groups_(plan.min_hop()),
      spray_(tracer, groups_) {
  const std::size_t n = num_switches_;
  const auto& graph = tracer.graph();
  slot_port_.resize(graph.num_slots());
  for (SwitchIndex s = 0; s < n; ++s) {
    for (PortNum p = 0; p <= graph.num_ports(s); ++p) {
      slot_port_[graph.slot(s, p)] = p;
      if (p == graph.num_ports(s)) break;  // PortNum is a byte: 255 ports would wrap
    }
  }
  const auto& endpoints = tracer.endpoints();
  lft_to_.resize(endpoints.size() * n);
  for (std::size_t e = 0; e < endpoints.size(); ++e) {
    for (SwitchIndex s = 0; s < n; ++s) lft_to_[e * n + s] = tracer.out_port(s, endpoints[e].lid);
  }
  for (const auto& e : tracer.endpoints()) {
    const long h = plan.host_index(e.ca, e.port);
    const std::uint32_t ip = h < 0 ? 0 : plan.hosts()[static_cast<std::size_t>(h)].ip;
    src_term_.push_back(address_term(ip, 0));
    dst_term_.push_back(address_term(ip, 4));
  }
  for (unsigned b = 0; b < 256; ++b) {
    sport_hi_[b] = key_byte_term(9, static_cast<std::uint8_t>(b));
    sport_lo_[b] = key_byte_term(10, static_cast<std::uint8_t>(b));
  }
  fixed_term_ = key_byte_term(8, kIpProtoUdp) ^ key_byte_term(11, static_cast<std::uint8_t>(kRoceUdpPort >> 8)) ^
                key_byte_term(12, static_cast<std::uint8_t>(kRoceUdpPort & 0xFF));
  for (SwitchIndex s = 0; s < n; ++s) {
    const std::uint32_t seed =
        options.per_switch_hash_seed ? switch_hash_seed(options.hash_seed, s) : options.hash_seed;
    switch_term_.push_back(seed_term(seed));
    switch_term_qp_.push_back(append_qpn(switch_term_.back(), 0) ^ append_qpn(0, 0));
    const unsigned tier = plan.switches()[s].tier;
    switch_offset_.push_back(static_cast<std::uint8_t>(options.per_switch_hash_seed ? tier_hash_offset(tier) : 0));
  }
}

void SchemeEvaluator::prefetch_rows(const FlowPair& flow) const {
  const auto* ids = min_hop_groups_.row(tracer_.endpoints()[flow.dst].sw);
  const auto* lft = lft_row(flow.dst);
  if (num_switches_ > kWholeRowSwitches) {  // long rows: only the source switch's entries
    const SwitchIndex first = tracer_.endpoints()[flow.src].sw;
    __builtin_prefetch(ids + first);
    __builtin_prefetch(lft + first);
    return;
  }
  for (std::size_t at = 0; at < num_switches_; at += kCacheLine) {
    __builtin_prefetch(reinterpret_cast<const char*>(ids) + 2 * at);
    __builtin_prefetch(reinterpret_cast<const char*>(ids) + 2 * at + kCacheLine);
    __builtin_prefetch(lft + at);
  }
}

// IB static: the LFTs by the one hop rule (routing/model/lft_walk.h), as FlowTracer::trace follows them.
bool SchemeEvaluator::walk_static(const FlowPair& flow, std::vector<std::uint32_t>& channels) const {
  const auto& g = tracer_.graph();
  const Endpoint& from = tracer_.endpoints()[flow.src];
  const Endpoint& to = tracer_.endpoints()[flow.dst];
  const PortNum* lft = lft_row(flow.dst);
  channels.push_back(static_cast<std::uint32_t>(g.num_slots() + flow.src));
  const LftWalkEnd end = walk_lft(
      g, from.sw, LidTarget{to.sw, to.sw_port}, [lft](SwitchIndex s) { return lft[s]; },
      [&](SwitchIndex s, PortNum p) { channels.push_back(g.slot(s, p)); });
  return end.delivered();
}

// Both multipath walks: the source CA's injection channel, then at every switch the port `choose(s)`
// picks (kNoPort drops the flow) until the destination switch delivers on the host port. A walk longer
// than the number of switches is a loop and drops the flow too.
template <class Choose>
bool SchemeEvaluator::walk_hops(const FlowPair& flow, std::vector<std::uint32_t>& channels, Choose&& choose) const {
  const auto& g = tracer_.graph();
  const Endpoint& to = tracer_.endpoints()[flow.dst];
  channels.push_back(static_cast<std::uint32_t>(g.num_slots() + flow.src));
  SwitchIndex s = tracer_.endpoints()[flow.src].sw;
  for (std::size_t hops = 0; hops <= num_switches_; ++hops) {
    if (s == to.sw) {
      channels.push_back(g.slot(s, to.sw_port));
      return true;
    }
    const PortNum p = choose(s);
    if (p == kNoPort) return false;
    channels.push_back(g.slot(s, p));
    s = g.peer_switch(s, p);
    if (s == kNoSwitch) return false;
  }
  return false;
}

// RoCE: hash at every switch over the group BGP installed towards the destination switch.
bool SchemeEvaluator::walk_ecmp(const FlowPair& flow, std::uint32_t flow_hash,
                                const std::vector<std::uint32_t>& switch_terms,
                                std::vector<std::uint32_t>& channels) const {
  const std::uint16_t* row = groups_.row(tracer_.endpoints()[flow.dst].sw);
  return walk_hops(flow, channels, [&](SwitchIndex s) -> PortNum {
    const auto group = groups_.local(s, row[s]);
    if (group.empty()) return kNoPort;
    return group[pick_member(hash_offset(flow_hash ^ switch_terms[s], switch_offset_[s]), group.size())];
  });
}

// IB AR: least-loaded member at every hop; ties go to the static LFT port (what an idle AR switch
// forwards on), else the lowest port. The choice is made without branches: loads of equal members are
// often equal or close, which a branch predictor cannot guess.
bool SchemeEvaluator::walk_adaptive(const FlowPair& flow, const std::vector<double>& load,
                                    std::vector<std::uint32_t>& channels) const {
  const auto& g = tracer_.graph();
  const Endpoint& to = tracer_.endpoints()[flow.dst];
  const std::uint16_t* row = min_hop_groups_.row(to.sw);
  const PortNum* lft = lft_row(flow.dst);
  return walk_hops(flow, channels, [&](SwitchIndex s) -> PortNum {
    const PortNum fixed = lft[s];
    const double* port_load = load.data() + g.port_base(s);
    PortNum best = kNoPort;
    double best_load = std::numeric_limits<double>::infinity();
    auto consider = [&](PortNum p) {
      const double l = port_load[p];
      const bool take = (l < best_load) | ((l == best_load) & (p == fixed));
      best = take ? p : best;
      best_load = take ? l : best_load;
    };
    if (adaptive_) {
      if (const auto* members = adaptive_->group(g.node(s), to.lid)) {
        for (PortNum p : *members) {
          if (p != 0 && p <= g.num_ports(s)) consider(p);
        }
      }
    } else {
      for (PortNum p : min_hop_groups_.local(s, row[s])) consider(p);  // min-hop ports are cabled to switches
    }
    return best;
  });
}

// The workspace emptied for one instance of `flows` flows with `qps` sub-flows each (reserving what a
// typical path of five switch hops needs, so the placement loop rarely reallocates).
void SchemeEvaluator::reset_workspace(std::size_t flows, unsigned qps, EvalWorkspace& ws) const {
  ws.offsets.clear();
  ws.offsets.push_back(0);
  ws.ports.clear();
  ws.routed_src.clear();
  ws.offsets.reserve(flows * qps + 1);
  ws.ports.reserve(flows * qps * 5);
  ws.routed_src.reserve(flows);
  ws.load.assign(num_channels_, 0.0);
  ws.subflows_on.assign(num_channels_, 0);
  if (qps > 1) {
    ws.flows_on.assign(num_channels_, 0);
    ws.last_flow.assign(num_channels_, 0xFFFFFFFFu);
  }
}

// Routes the `qps` sub-flows of one flow (the `id`-th placed) and counts its loads, or, when one QP
// finds no route, leaves the workspace as it was: a flow is routed with all its QPs or not at all, so
// routed flow k owns sub-flows k*qps .. k*qps+qps-1. The QPs are walked into ws.path first and kept
// as ports only once all of them arrived.
bool SchemeEvaluator::route_flow(const FlowPair& flow, std::uint32_t id, Scheme scheme, unsigned qps,
                                 std::uint64_t port_seed, EvalWorkspace& ws) const {
  auto& channels = ws.path;
  auto& load = ws.load;
  channels.clear();
  ws.qp_end.clear();
  const double weight = 1.0 / qps;
  const bool adaptive = scheme == Scheme::kAdaptive;
  std::size_t qp_start = 0;  // where the path of the QP being routed starts
  const std::uint32_t pair_hash = src_term_[flow.src] ^ dst_term_[flow.dst] ^ fixed_term_;
  bool ok = true;
  for (unsigned q = 0; q < qps && ok; ++q) {
    qp_start = channels.size();
    if (scheme == Scheme::kStatic) {
      ok = walk_static(flow, channels);
    } else if (scheme == Scheme::kEcmp) {
      const auto sport = static_cast<std::uint16_t>(0xC000u | (mix(port_seed + id * 64ull + q) & 0x3FFFu));
      ok = walk_ecmp(flow, pair_hash ^ sport_hi_[sport >> 8] ^ sport_lo_[sport & 0xFF], switch_term_, channels);
    } else if (scheme == Scheme::kEcmpQp) {
      // The connection's QPs share its source port (QP 0's draw, roce-ecmp's port): only the QPN, drawn
      // per QP, tells them apart, so the gain over roce-ecmp is E-ECMP's and QP scaling's alone.
      const auto sport = static_cast<std::uint16_t>(0xC000u | (mix(port_seed + id * 64ull) & 0x3FFFu));
      const auto qpn = static_cast<std::uint32_t>(mix(~port_seed + id * 64ull + q) & 0xFFFFFFu);
      const std::uint32_t five_tuple = pair_hash ^ sport_hi_[sport >> 8] ^ sport_lo_[sport & 0xFF];
      ok = walk_ecmp(flow, append_qpn(five_tuple, qpn), switch_term_qp_, channels);
    } else {
      ok = walk_adaptive(flow, load, channels);
      // Later flows see this one's load while choosing.
      if (ok)
        for (std::size_t j = qp_start; j < channels.size(); ++j) load[channels[j]] += weight;
    }
    ws.qp_end.push_back(static_cast<std::uint32_t>(channels.size()));
  }
  if (!ok) {
    if (adaptive) {  // take back the QPs already placed
      for (std::size_t j = 0; j < qp_start; ++j) load[channels[j]] -= weight;
    }
    return false;
  }
  // Kept as ports: each QP's walk starts on the source's injection channel (PortPaths puts it back)
  // and then takes one port per switch.
  std::size_t begin = 0;
  for (const std::uint32_t end : ws.qp_end) {
    for (std::size_t j = begin + 1; j < end; ++j) ws.ports.push_back(slot_port_[channels[j]]);
    ws.offsets.push_back(static_cast<std::uint32_t>(ws.ports.size()));
    begin = end;
  }
  ws.routed_src.push_back(flow.src);
  // Loads (already added while placing for AR) and, with several QPs, distinct flows per cable (the
  // QPs of a flow counted once). With one QP a path never repeats a cable, so the load is that count.
  for (const std::uint32_t c : channels) {
    if (!adaptive) load[c] += weight;
    ++ws.subflows_on[c];
    if (qps > 1 && ws.last_flow[c] != id) {
      ws.last_flow[c] = id;
      ++ws.flows_on[c];
    }
  }
  return true;
}

// Routes the flows of `inst` one after the other (AR in a seeded random order, since each placement
// sees the load of the earlier ones); the unrouted ones are counted in r.unrouted.
void SchemeEvaluator::place_flows(const PatternInstance& inst, Scheme scheme, unsigned qps, EvalWorkspace& ws,
                                  InstanceFigures& r) const {
  const auto& flows = inst.flows;
  // Gathering the flows into AR's order first (a loop with no dependences, so its cache misses overlap)
  // lets the placement loop read them one after the other.
  const bool shuffled = scheme == Scheme::kAdaptive;
  if (shuffled) {
    const auto order = seeded_shuffle(flows.size(), mix(inst.seed ^ 0xA5A5A5A5u));
    ws.placed.resize(flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i) ws.placed[i] = flows[order[i]];
  }
  const std::uint64_t port_seed = mix(inst.seed);
  const std::size_t endpoints = tracer_.endpoints().size();
  auto cut_off = [endpoints](const FlowPair& f) { return f.src >= endpoints || f.dst >= endpoints; };
  for (std::size_t i = 0; i < flows.size(); ++i) {
    // In random order, fetch the table rows of a flow placed a few flows later; in flow order the rows
    // follow each other in memory and the hardware fetches them by itself.
    if (shuffled && i + kPrefetchDistance < flows.size() && !cut_off(ws.placed[i + kPrefetchDistance])) {
      prefetch_rows(ws.placed[i + kPrefetchDistance]);
    }
    const FlowPair flow = shuffled ? ws.placed[i] : flows[i];
    if (cut_off(flow)) {
      ++r.unrouted;
      continue;
    }
    // The id is distinct per flow: source ports use the flow index.
    if (!route_flow(flow, static_cast<std::uint32_t>(i), scheme, qps, port_seed, ws)) ++r.unrouted;
  }
}

// The figures of the placed sub-flows: the highest loads, each sub-flow's bottleneck and max-min share,
// and the flows that cross a switch cable another flow crosses too.
void SchemeEvaluator::tally(unsigned qps, EvalWorkspace& ws, InstanceFigures& r) const {
  const double weight = 1.0 / qps;
  const auto& load = ws.load;
  const PortPaths paths = port_paths(ws, qps);
  // shared[c]: a switch-to-switch cable that two or more flows cross.
  auto& shared = ws.shared;
  shared.assign(num_channels_, 0);
  for (std::size_t c = 0; c < num_channels_; ++c) {
    const auto channel = static_cast<std::uint32_t>(c);
    r.max_load = std::max(r.max_load, load[c]);
    if (!tracer_.is_switch_link(channel)) continue;
    r.max_switch_load = std::max(r.max_switch_load, load[c]);
    r.hottest.add(channel, load[c]);
    shared[c] = qps > 1 ? ws.flows_on[c] >= 2 : load[c] >= 2.0;
  }
  const auto rates = maxmin_rates_counted(paths, ws.subflows_on, num_channels_, ws.maxmin);
  // A flow collides when one of its QPs crosses a switch cable that another flow crosses too.
  bool collided = false;
  double flow_rate = 0;
  double min_rate = std::numeric_limits<double>::infinity();
  const std::size_t subs = paths.units();
  for (std::size_t sub = 0; sub < subs; ++sub) {
    double worst = 0;
    paths.for_each(sub, [&](std::uint32_t c) {
      worst = std::max(worst, load[c]);
      collided |= shared[c] != 0;
    });
    if (worst > 0) r.bottleneck_sum += weight / worst;
    r.maxmin_sum += rates[sub];
    flow_rate += rates[sub];
    if (sub % qps == qps - 1) {  // the flow's last QP
      r.collisions += collided;
      collided = false;
      min_rate = std::min(min_rate, flow_rate);
      flow_rate = 0;
    }
  }
  r.min_flow_rate = subs > 0 ? min_rate : 0.0;
}

PortPaths SchemeEvaluator::port_paths(const EvalWorkspace& ws, unsigned qps) const {
  return PortPaths{&tracer_.graph(), tracer_.endpoints().data(), ws.offsets, ws.ports, ws.routed_src, qps};
}

unsigned SchemeEvaluator::qps(Scheme scheme) const {
  switch (scheme) {
    case Scheme::kAdaptive: return qps_;
    case Scheme::kEcmpQp: return eecmp_qps_;
    default: return 1;
  }
}

InstanceFigures SchemeEvaluator::evaluate(const PatternInstance& inst, Scheme scheme, EvalWorkspace& ws) const {
  if (scheme == Scheme::kSpray) return spray_.evaluate(inst, ws.spray);
  const unsigned qps = this->qps(scheme);
  reset_workspace(inst.flows.size(), qps, ws);
  InstanceFigures r;
  r.flows = inst.flows.size();
  place_flows(inst, scheme, qps, ws, r);
  tally(qps, ws, r);
  return r;
}

}  // namespace smd::roce
