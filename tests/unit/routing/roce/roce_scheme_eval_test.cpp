// The comparison's evaluator (routing/roce/scheme_eval.h) against a reference written here the plain way:
// every flow traced hop by hop through the library's public pieces (FlowTracer, EcmpTable groups, the
// 5-tuple CRC per switch, AdaptivePlan groups), loads summed per cable, max-min rates by textbook
// progressive filling (freeze every flow of the lowest-share cable, recompute, repeat). The evaluator's
// transposed tables, split hash and reused buffers must give the same figures on fat trees, tori and
// random graphs, with one and several QPs, with and without an AdaptivePlan.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

#include "routing/chain/registry.h"
#include "routing/fabric_gen/fabric_gen.h"
#include "routing/lids/lid_assign.h"
#include "routing/quality/flow_trace.h"
#include "routing/roce/ecmp_hash.h"
#include "routing/roce/scheme_eval.h"

namespace smd::roce::roce_scheme_eval_test {
namespace {

// The model's per-flow randomness (docs/roce.md): splitmix64 of (instance seed, flow, QP).
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct Routed {
  Topology topo;
  LidMap lids;
  RoutingTables tables;
};

Routed route(Topology topo, const char* engine, bool adaptive) {
  auto lids = assign_lids(topo, Guid2Lid{}, LidAssignOptions{});
  EXPECT_TRUE(lids.ok());
  RoutingOptions options;
  options.adaptive = adaptive;
  auto e = make_engine(engine, options);
  EXPECT_TRUE(e.ok());
  auto tables = (*e)->compute(topo, *lids);
  EXPECT_TRUE(tables.ok()) << tables.error().message;
  return Routed{std::move(topo), std::move(lids).value(), std::move(tables).value()};
}

/// Max-min rates by the definition: raise all unfrozen flows together; the cables whose share
/// (remaining / unfrozen flows) is lowest saturate; their flows freeze at that share; repeat.
std::vector<double> textbook_maxmin(const std::vector<std::vector<std::uint32_t>>& paths, std::size_t channels) {
  std::vector<double> rate(paths.size(), 0.0);
  std::vector<bool> frozen(paths.size(), false);
  std::vector<double> remaining(channels, 1.0);
  for (;;) {
    std::vector<unsigned> unfrozen(channels, 0);
    for (std::size_t f = 0; f < paths.size(); ++f) {
      if (!frozen[f])
        for (auto c : paths[f]) ++unfrozen[c];
    }
    double level = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < channels; ++c) {
      if (unfrozen[c]) level = std::min(level, std::max(0.0, remaining[c]) / unfrozen[c]);
    }
    if (level == std::numeric_limits<double>::infinity()) return rate;
    std::vector<bool> saturated(channels, false);
    for (std::size_t c = 0; c < channels; ++c) {
      saturated[c] = unfrozen[c] && std::max(0.0, remaining[c]) / unfrozen[c] <= level * (1 + 1e-12);
    }
    for (std::size_t f = 0; f < paths.size(); ++f) {
      if (frozen[f] || paths[f].empty()) continue;
      if (std::none_of(paths[f].begin(), paths[f].end(), [&](auto c) { return saturated[c]; })) continue;
      frozen[f] = true;
      rate[f] = level;
      for (auto c : paths[f]) remaining[c] -= level;
    }
  }
}

/// The hop-by-hop schemes traced one flow and one hop at a time (roce-spray has its own reference,
/// roce_spray_test.cpp). `qps_option` is ib-adaptive's, `eecmp_qps` roce-eecmp's; the others use one QP.
InstanceFigures reference(const Routed& r, const RoutePlan& plan, const PatternInstance& inst, Scheme scheme,
                          unsigned qps_option, unsigned eecmp_qps) {
  const FlowTracer tracer(r.topo, r.lids, r.tables, r.tables.ca_order);
  const auto& g = tracer.graph();
  const auto& eps = tracer.endpoints();
  const unsigned qps = scheme == Scheme::kAdaptive ? qps_option : scheme == Scheme::kEcmpQp ? eecmp_qps : 1;
  const double weight = 1.0 / qps;
  auto ip_of = [&](std::uint32_t e) {
    const long h = plan.host_index(eps[e].ca, eps[e].port);
    return h < 0 ? 0u : plan.hosts()[static_cast<std::size_t>(h)].ip;
  };
  std::vector<double> load(tracer.num_channels(), 0.0);
  std::vector<std::vector<std::uint32_t>> paths;  // per routed QP
  std::vector<std::uint32_t> owner;               // per routed QP: position of its flow in placement order
  InstanceFigures out;
  out.flows = inst.flows.size();
  std::vector<std::uint32_t> order(inst.flows.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  if (scheme == Scheme::kAdaptive) order = seeded_shuffle(inst.flows.size(), mix(inst.seed ^ 0xA5A5A5A5u));

  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const std::uint32_t f = order[i];
    const FlowPair flow = inst.flows[f];
    const Endpoint& from = eps[flow.src];
    const Endpoint& to = eps[flow.dst];
    std::vector<std::vector<std::uint32_t>> qp_paths;
    bool ok = true;
    for (unsigned q = 0; q < qps && ok; ++q) {
      std::vector<std::uint32_t> path;
      if (scheme == Scheme::kStatic) {
        ok = tracer.trace(flow.src, flow.dst, path);
      } else {
        path.push_back(static_cast<std::uint32_t>(g.num_slots() + flow.src));
        SwitchIndex s = from.sw;
        ok = false;
        for (std::size_t hop = 0; hop <= g.num_switches() && s != kNoSwitch; ++hop) {
          if (s == to.sw) {
            path.push_back(g.slot(s, to.sw_port));
            ok = true;
            break;
          }
          std::vector<PortNum> group;
          if (scheme == Scheme::kAdaptive && r.tables.adaptive) {
            if (const auto* m = r.tables.adaptive->group(g.node(s), to.lid)) group = *m;
          } else {
            const auto span = plan.fib().group(s, to.sw);
            group.assign(span.begin(), span.end());
          }
          PortNum chosen = kNoPort;
          if (scheme == Scheme::kEcmp || scheme == Scheme::kEcmpQp) {
            if (group.empty()) break;
            // roce-eecmp: every QP on the connection's port (QP 0's), told apart by its QPN alone.
            const unsigned port_qp = scheme == Scheme::kEcmp ? q : 0;
            const auto sport =
                static_cast<std::uint16_t>(0xC000u | (mix(mix(inst.seed) + f * 64ull + port_qp) & 0x3FFFu));
            const FiveTuple tuple{ip_of(flow.src), ip_of(flow.dst), kIpProtoUdp, sport, kRoceUdpPort};
            const std::uint32_t seed = switch_hash_seed(0, s);
            const auto qpn = static_cast<std::uint32_t>(mix(~mix(inst.seed) + f * 64ull + q) & 0xFFFFFFu);
            const std::uint32_t h = hash_offset(
                scheme == Scheme::kEcmp ? hash_five_tuple(tuple, seed) : hash_five_tuple_qpn(tuple, qpn, seed),
                tier_hash_offset(plan.switches()[s].tier));
            chosen = group[h % group.size()];
          } else {  // least loaded, ties to the LFT's port, else the first
            double best = 0;
            for (PortNum p : group) {
              if (p == 0 || p > g.num_ports(s)) continue;
              const double l = load[g.slot(s, p)];
              if (chosen == kNoPort || l < best || (l == best && p == tracer.out_port(s, to.lid))) {
                chosen = p;
                best = l;
              }
            }
          }
          if (chosen == kNoPort) break;
          path.push_back(g.slot(s, chosen));
          s = g.peer_switch(s, chosen);
        }
      }
      if (ok && scheme == Scheme::kAdaptive)
        for (auto c : path) load[c] += weight;
      if (ok) qp_paths.push_back(path);
    }
    if (!ok) {
      if (scheme == Scheme::kAdaptive)
        for (const auto& p : qp_paths)
          for (auto c : p) load[c] -= weight;
      ++out.unrouted;
      continue;
    }
    for (auto& p : qp_paths) {
      if (scheme != Scheme::kAdaptive)
        for (auto c : p) load[c] += weight;
      paths.push_back(std::move(p));
      owner.push_back(i);
    }
  }
  std::map<std::uint32_t, std::vector<std::uint32_t>> flows_on;  // channel -> distinct flows
  for (std::size_t k = 0; k < paths.size(); ++k) {
    for (auto c : paths[k]) {
      auto& v = flows_on[c];
      if (std::find(v.begin(), v.end(), owner[k]) == v.end()) v.push_back(owner[k]);
    }
  }
  for (std::size_t c = 0; c < load.size(); ++c) {
    out.max_load = std::max(out.max_load, load[c]);
    if (tracer.is_switch_link(static_cast<std::uint32_t>(c)))
      out.max_switch_load = std::max(out.max_switch_load, load[c]);
  }
  const auto rates = textbook_maxmin(paths, tracer.num_channels());
  std::map<std::uint32_t, bool> collided;
  std::map<std::uint32_t, double> flow_rate;  // placed flow -> its QPs' rates summed
  for (std::size_t k = 0; k < paths.size(); ++k) {
    flow_rate[owner[k]] += rates[k];
    double worst = 0;
    for (auto c : paths[k]) {
      worst = std::max(worst, load[c]);
      if (tracer.is_switch_link(c) && flows_on[c].size() >= 2) collided[owner[k]] = true;
    }
    out.bottleneck_sum += weight / worst;
    out.maxmin_sum += rates[k];
  }
  out.collisions = collided.size();
  if (!flow_rate.empty()) {
    out.min_flow_rate = std::numeric_limits<double>::infinity();
    for (const auto& [flow, rate] : flow_rate) out.min_flow_rate = std::min(out.min_flow_rate, rate);
  }
  return out;
}

// roce-eecmp runs with one QP more than ib-adaptive, so that a mix-up of the two options shows.
void expect_same_as_reference(const Routed& r, unsigned qps, const char* what) {
  auto plan = RoutePlan::build(r.topo);
  ASSERT_TRUE(plan.ok());
  const FlowTracer tracer(r.topo, r.lids, r.tables, r.tables.ca_order);
  const SchemeEvaluator evaluator(tracer, *plan, r.tables.adaptive.get(), EvalOptions{qps, 0, true, qps + 1});
  PatternOptions po;
  po.max_shifts = 3;
  po.seeds = 2;
  EvalWorkspace workspace;  // reused across instances, as compare_schemes does
  for (const auto& pattern : make_patterns(tracer.endpoints().size(), po)) {
    for (const auto& inst : pattern.instances) {
      for (Scheme scheme : {Scheme::kStatic, Scheme::kAdaptive, Scheme::kEcmp, Scheme::kEcmpQp}) {
        SCOPED_TRACE(std::string(what) + " " + pattern.name + " " + scheme_name(scheme) + " qps " +
                     std::to_string(qps));
        const InstanceFigures got = evaluator.evaluate(inst, scheme, workspace);
        const InstanceFigures want = reference(r, *plan, inst, scheme, qps, qps + 1);
        EXPECT_EQ(got.flows, want.flows);
        EXPECT_EQ(got.unrouted, want.unrouted);
        EXPECT_EQ(got.collisions, want.collisions);
        EXPECT_NEAR(got.max_load, want.max_load, 1e-9);
        EXPECT_NEAR(got.max_switch_load, want.max_switch_load, 1e-9);
        EXPECT_NEAR(got.bottleneck_sum, want.bottleneck_sum, 1e-9);
        EXPECT_NEAR(got.maxmin_sum, want.maxmin_sum, 1e-9);
        EXPECT_NEAR(got.min_flow_rate, want.min_flow_rate, 1e-12);
      }
    }
  }
}

TEST(RoceSchemeEval, MatchesReferenceOnFatTreeWithAndWithoutArPlan) {
  auto tree = make_kary_ntree(3, 3);
  ASSERT_TRUE(tree.ok());
  expect_same_as_reference(route(*tree, "ftree", false), 1, "kary3");
  expect_same_as_reference(route(*tree, "ftree", true), 3, "kary3 AR plan");
}

TEST(RoceSchemeEval, MatchesReferenceOnTorusAndRandomGraph) {
  // updn on a torus routes some pairs over longer-than-shortest paths; the random graph has uneven groups.
  auto torus = make_torus({3, 3}, 2);
  ASSERT_TRUE(torus.ok());
  expect_same_as_reference(route(*torus, "updn", false), 2, "torus");
  auto random = make_random(10, 3, 2, 5);
  ASSERT_TRUE(random.ok());
  expect_same_as_reference(route(*random, "minhop", true), 1, "random");
}

}  // namespace
}  // namespace smd::roce::roce_scheme_eval_test
