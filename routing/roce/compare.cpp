#include "routing/roce/compare.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "routing/quality/flow_trace.h"
#include "routing/roce/rail_collectives.h"
#include "routing/roce/scheme_eval.h"

namespace smd::roce {

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

std::vector<SwitchIndex> compare_endpoint_leaves(const Topology& topo, const LidMap& lids,
                                                 const RoutingTables& tables) {
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  std::vector<SwitchIndex> out;
  for (const auto& e : tracer.endpoints()) out.push_back(e.sw);
  return out;
}

RailDetection compare_rail_layout(const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  std::vector<std::string> names;
  for (const auto& e : tracer.endpoints()) names.push_back(topo.node(e.ca).description);
  return detect_rail_layout(names);
}

namespace {

/// (switch, leaf) pairs whose BGP group differs from the min-hop one: none on a Clos.
std::size_t groups_off_shortest_paths(const RoutePlan& plan) {
  std::size_t moved = 0;
  const auto n = static_cast<SwitchIndex>(plan.switches().size());
  for (SwitchIndex d = 0; d < n; ++d) {
    if (!plan.switches()[d].has_hosts) continue;
    for (SwitchIndex s = 0; s < n; ++s) {
      const auto bgp = plan.fib().group(s, d);
      const auto min_hop = plan.min_hop().group(s, d);
      moved += !std::equal(bgp.begin(), bgp.end(), min_hop.begin(), min_hop.end());
    }
  }
  return moved;
}

/// Every user pair must name two distinct endpoints of the `n` the tracer found.
Status check_pairs(const std::vector<FlowPair>& pairs, std::size_t n) {
  for (const auto& p : pairs) {
    if (p.src >= n || p.dst >= n || p.src == p.dst) {
      return make_error(ErrorCode::kInvalidInput, "pair " + std::to_string(p.src) + " -> " + std::to_string(p.dst) +
                                                      ": endpoint out of range (0.." + std::to_string(n - 1) +
                                                      ") or a host sending to itself");
    }
  }
  return Ok{};
}

/// A collective over one job, with the job's name and the leaves it spans.
struct JobCollective {
  Collective collective;
  std::string job;
  std::size_t leaves = 0;
};

/// The jobs of `options`: its `jobs`, else one job "all" of its ranks (all `n` endpoints when none).
std::vector<Job> jobs_of(const CompareOptions& options, std::size_t n) {
  if (!options.jobs.empty()) return options.jobs;
  Job all{"all", options.ranks};
  if (all.ranks.empty()) {
    for (std::uint32_t e = 0; e < n; ++e) all.ranks.push_back(e);
  }
  return {all};
}

/// One collective of one job: over its ranks, or over its whole hosts on a multi-HCA fabric.
Result<Collective> job_collective(const CompareOptions& options, const CollectiveSpec& spec, const Job& job) {
  if (!options.rails) return make_collective(spec, job.ranks);
  auto hosts = job_hosts(*options.rails, job.ranks);
  if (!hosts) return hosts.error();
  return make_rail_collective(spec, *options.rails, *hosts);
}

/// The collectives of `options` over each job's ranks, job-major; a collective that puts nothing on the
/// fabric (expert groups inside hosts) is left out with a note.
Result<std::vector<JobCollective>> make_collectives(const CompareOptions& options,
                                                    std::span<const SwitchIndex> leaf_of_endpoint,
                                                    std::vector<std::string>& notes) {
  const std::size_t n = leaf_of_endpoint.size();
  std::vector<JobCollective> out;
  for (const Job& job : jobs_of(options, n)) {
    for (std::size_t i = 0; i < job.ranks.size(); ++i) {
      if (job.ranks[i] >= n) {
        return make_error(ErrorCode::kInvalidInput, "job " + job.name + ": rank " + std::to_string(i) +
                                                        " names endpoint " + std::to_string(job.ranks[i]) +
                                                        ", out of range (0.." + std::to_string(n - 1) + ")");
      }
    }
    const std::size_t leaves = leaves_spanned(job.ranks, leaf_of_endpoint);
    for (const auto& spec : options.collectives) {
      auto c = job_collective(options, spec, job);
      if (!c) return c.error().with_context("job " + job.name);
      if (c->phases.empty()) {
        notes.push_back("job " + job.name + ": " + c->name + " left out: every expert group lies inside one host (" +
                        std::to_string(options.rails->rails) + " HCAs), its traffic is NVLink only");
        continue;
      }
      out.push_back(JobCollective{std::move(c).value(), job.name, leaves});
    }
  }
  if (!options.jobs_at_once || options.jobs.size() < 2) return out;
  // Job-major: collective k of job j is out[j * per_job + k]; merge each collective over the jobs.
  const std::size_t per_job = out.size() / options.jobs.size();
  const std::size_t jobs = options.jobs.size();
  std::vector<std::string> names;
  std::vector<std::uint32_t> all_ranks;
  std::string together;
  for (const Job& job : options.jobs) {
    names.push_back(job.name);
    all_ranks.insert(all_ranks.end(), job.ranks.begin(), job.ranks.end());
    together += (together.empty() ? "" : " + ") + job.name;
  }
  std::vector<JobCollective> merged;
  for (std::size_t k = 0; k < per_job; ++k) {
    std::vector<Collective> same;
    for (std::size_t j = 0; j < jobs; ++j) same.push_back(std::move(out[j * per_job + k].collective));
    auto m = merge_jobs_at_once(same, names);
    if (!m) return m.error();
    merged.push_back(JobCollective{std::move(m).value(), together, leaves_spanned(all_ranks, leaf_of_endpoint)});
  }
  return merged;
}

/// What a reader of the figures must know about how each scheme was modelled on these tables.
std::vector<std::string> comparison_notes(const RoutePlan& plan, bool has_adaptive_plan, unsigned qps) {
  std::vector<std::string> notes;
  if (!has_adaptive_plan) {
    notes.push_back(
        "ib-adaptive: the tables carry no AdaptivePlan (routing.adaptive off); AR groups are the "
        "min-hop next-hop sets, up/down-legal on a Clos or fat tree, not checked elsewhere");
  }
  if (qps > 1) notes.push_back("ib-static: one path per destination LID, QPs do not change it");
  if (const std::size_t moved = groups_off_shortest_paths(plan)) {
    notes.push_back("roce-ecmp: BGP's own-AS rule leaves " + std::to_string(moved) +
                    " (switch, leaf) groups other than the shortest paths (not a Clos); flows follow what "
                    "BGP installs");
  }
  return notes;
}

/// The caveat a pattern's figures of `scheme` carry ("" = none).
std::string scheme_note(Scheme scheme, bool has_adaptive_plan, unsigned eecmp_qps) {
  switch (scheme) {
    case Scheme::kAdaptive: return has_adaptive_plan ? "" : "AR groups = min-hop sets (no AdaptivePlan)";
    case Scheme::kEcmp: return "one QP per connection, 5-tuple hash";
    case Scheme::kEcmpQp: return std::to_string(eecmp_qps) + " QP(s) per connection, destination QPN hashed (E-ECMP)";
    case Scheme::kSpray: return "fluid per-packet spraying, equal split per hop; reordering not modelled";
    default: return "";
  }
}

/// One evaluation: an instance under one scheme. `pattern` indexes the ordinary patterns; a collective's
/// phase has kNoPattern (its figures are read through EvalPlan::first_unit, not aggregated by pattern).
struct Unit {
  const PatternInstance* instance;
  std::size_t pattern;
  Scheme scheme;
  std::size_t flows;
};
constexpr std::size_t kNoPattern = static_cast<std::size_t>(-1);

/// The units to evaluate, and for every collective phase the first of its kNumSchemes consecutive units.
struct EvalPlan {
  std::vector<Unit> units;
  std::vector<std::vector<std::size_t>> first_unit;  // [collective][phase]
};

/// Same flows in the same order with the same seed: the evaluator's figures are then the same too.
bool same_instance(const PatternInstance& a, const PatternInstance& b) {
  return a.seed == b.seed && a.flows.size() == b.flows.size() &&
         std::equal(a.flows.begin(), a.flows.end(), b.flows.begin(),
                    [](const FlowPair& x, const FlowPair& y) { return x.src == y.src && x.dst == y.dst; });
}

/// Every (pattern, instance, scheme), pattern-major, then every collective phase not identical to an
/// instance already planned (the all-to-all collective over all endpoints is the all-to-all pattern).
EvalPlan make_units(const std::vector<Pattern>& patterns, const std::vector<JobCollective>& collectives) {
  EvalPlan plan;
  std::vector<std::pair<const PatternInstance*, std::size_t>> planned;  // instance, its first unit
  auto add = [&](const PatternInstance& inst, std::size_t pattern) {
    const std::size_t first = plan.units.size();
    planned.emplace_back(&inst, first);
    for (unsigned s = 0; s < kNumSchemes; ++s) {
      plan.units.push_back(Unit{&inst, pattern, static_cast<Scheme>(s), inst.flows.size()});
    }
    return first;
  };
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    for (const auto& inst : patterns[p].instances) add(inst, p);
  }
  for (const auto& jc : collectives) {
    auto& firsts = plan.first_unit.emplace_back();
    for (const auto& phase : jc.collective.phases) {
      const auto same = std::find_if(planned.begin(), planned.end(),
                                     [&](const auto& e) { return same_instance(*e.first, phase.instance); });
      firsts.push_back(same != planned.end() ? same->second : add(phase.instance, kNoPattern));
    }
  }
  return plan;
}

/// The figures of every unit, evaluated on `threads` threads (0 = one per core), thread t with
/// workspaces[t] (grown to the thread count; kept by the caller so that the run after a loss reuses the
/// memory the run before touched instead of having the kernel map and zero it again). Each unit's
/// figures depend only on the unit, so the result depends neither on the thread count nor on what the
/// workspaces held.
std::vector<InstanceFigures> evaluate_units(const SchemeEvaluator& evaluator, const std::vector<Unit>& units,
                                            unsigned threads, std::deque<EvalWorkspace>& workspaces) {
  // Costliest first so that a big all-to-all unit does not run alone at the end. ib-adaptive places its
  // flows one by one in random order and costs about three times the other schemes per QP.
  auto cost = [&](const Unit& u) {
    return u.flows * evaluator.qps(u.scheme) * (u.scheme == Scheme::kAdaptive ? 3 : 1);
  };
  std::vector<std::size_t> by_size(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) by_size[i] = i;
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](std::size_t a, std::size_t b) { return cost(units[a]) > cost(units[b]); });
  std::vector<InstanceFigures> figures(units.size());
  // Thread t takes the costliest units t, t + T, t + 2T, ... (T threads): a fixed split, so a run after a
  // loss hands every thread the units it had before, each workspace is already grown to them, and the
  // peak memory stays that of one run.
  auto worker = [&](unsigned t, unsigned stride, EvalWorkspace& workspace) {  // kept across the units
    for (std::size_t k = t; k < by_size.size(); k += stride) {
      const Unit& u = units[by_size[k]];
      figures[by_size[k]] = evaluator.evaluate(*u.instance, u.scheme, workspace);
    }
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = std::max(1u, static_cast<unsigned>(std::min<std::size_t>(threads, units.size())));
  while (workspaces.size() < threads) workspaces.emplace_back();
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t, threads, std::ref(workspaces[t]));
  worker(0, threads, workspaces[0]);
  for (auto& t : pool) t.join();
  return figures;
}

/// The hottest channels of one evaluation named by the cables they are: switch, port, peer switch, port.
std::vector<HotCable> name_channels(const Topology& topo, const FlowTracer& tracer, const HottestChannels& hot) {
  const SwitchGraph& g = tracer.graph();
  std::vector<HotCable> out;
  for (const ChannelLoad& cl : hot.top) {
    if (cl.channel == kNoChannel || cl.channel >= g.num_slots()) continue;
    // The switch whose slots hold the channel: the last one whose first slot is at or below it.
    SwitchIndex lo = 0, hi = static_cast<SwitchIndex>(g.num_switches());
    while (hi - lo > 1) {
      const SwitchIndex mid = lo + (hi - lo) / 2;
      (g.slot(mid, 0) <= cl.channel ? lo : hi) = mid;
    }
    const auto port = static_cast<PortNum>(cl.channel - g.slot(lo, 0));
    const Node& from = topo.node(g.node(lo));
    const Node& to = topo.node(g.peer_node(lo, port));
    out.push_back(HotCable{from.description, from.guid, port, to.description, to.guid, g.peer_port(lo, port), cl.load});
  }
  return out;
}

/// Scheme `scheme`'s figures over the `instances` instances of pattern `pattern`.
SchemeFigures scheme_figures(std::size_t pattern, Scheme scheme, std::size_t instances, const std::vector<Unit>& units,
                             const std::vector<InstanceFigures>& figures, const Topology& topo,
                             const FlowTracer& tracer) {
  SchemeFigures sf;
  sf.name = scheme_name(scheme);
  double max_sum = 0, bottleneck = 0, maxmin = 0;
  std::uint64_t collisions = 0;
  const InstanceFigures* hottest = nullptr;  // the instance with the highest switch cable load
  for (std::size_t u = 0; u < units.size(); ++u) {
    if (units[u].pattern != pattern || units[u].scheme != scheme) continue;
    const auto& f = figures[u];
    if (!hottest || f.max_switch_load > hottest->max_switch_load) hottest = &f;
    sf.max_link_load = std::max(sf.max_link_load, f.max_load);
    sf.max_switch_link_load = std::max(sf.max_switch_link_load, f.max_switch_load);
    max_sum += f.max_load;
    bottleneck += f.bottleneck_sum;
    maxmin += f.maxmin_sum;
    collisions += f.collisions;
    sf.flows += f.flows;
    sf.unrouted += f.unrouted;
  }
  if (hottest) {
    sf.hottest_cables = name_channels(topo, tracer, hottest->hottest);
    sf.cables_at_max_load = hottest->hottest.at_max;
  }
  if (instances) sf.mean_max_link_load = max_sum / static_cast<double>(instances);
  if (sf.flows) {
    const auto flows = static_cast<double>(sf.flows);
    sf.mean_bottleneck_share = bottleneck / flows;
    sf.maxmin_throughput = maxmin / flows;
    sf.collision_share = static_cast<double>(collisions) / flows;
  }
  return sf;
}

/// What either fabric evaluates: the patterns and the collectives, made over the endpoints before, and
/// the units that evaluate them.
struct Workload {
  std::vector<Pattern> patterns;
  std::vector<JobCollective> collectives;
  EvalPlan plan;
  std::vector<std::string> notes;  ///< about the workload (multi-HCA hosts, collectives left out)
};

/// The workload of `options` over the tracer's endpoints. Errors: kInvalidInput for fewer than two
/// endpoints, a bad pair or a bad rank.
Result<Workload> make_workload(const FlowTracer& tracer, const CompareOptions& options) {
  const std::size_t n = tracer.endpoints().size();
  if (n < 2) return make_error(ErrorCode::kInvalidInput, "fewer than 2 endpoints with a LID cabled to a switch");
  if (auto ok = check_pairs(options.patterns.pairs, n); !ok) return ok.error();
  Workload w;
  w.patterns = make_patterns(n, options.patterns);
  std::vector<SwitchIndex> leaf_of_endpoint;
  for (const auto& e : tracer.endpoints()) leaf_of_endpoint.push_back(e.sw);
  if (options.rails) {
    w.notes.push_back("multi-HCA hosts: " + std::to_string(options.rails->hosts()) + " hosts x " +
                      std::to_string(options.rails->rails) +
                      " HCAs; a rank is an HCA, jobs take whole hosts, collectives put on the fabric what NCCL does "
                      "(one ring per rail, all-to-all through the destination's rail by PXN); traffic inside a "
                      "host is NVLink and free; patterns are per HCA");
  }
  auto collectives = make_collectives(options, leaf_of_endpoint, w.notes);
  if (!collectives) return collectives.error();
  w.collectives = std::move(collectives).value();
  // The plan points into w.patterns and w.collectives: made last, and the Workload is never copied.
  w.plan = make_units(w.patterns, w.collectives);
  return w;
}

/// The Comparison of one fabric from the figures of the workload's units (`units`: the workload's or
/// the same units over other instances, in the same order).
Comparison assemble(const Workload& w, const std::vector<Unit>& units, const std::vector<InstanceFigures>& figures,
                    bool has_adaptive_plan, unsigned eecmp_qps, const Topology& topo, const FlowTracer& tracer) {
  Comparison out;
  for (std::size_t p = 0; p < w.patterns.size(); ++p) {
    PatternResult pr;
    pr.name = w.patterns[p].name;
    pr.instances = w.patterns[p].instances.size();
    for (unsigned s = 0; s < kNumSchemes; ++s) {
      const auto scheme = static_cast<Scheme>(s);
      SchemeFigures sf = scheme_figures(p, scheme, pr.instances, units, figures, topo, tracer);
      sf.note = scheme_note(scheme, has_adaptive_plan, eecmp_qps);
      pr.schemes.push_back(std::move(sf));
    }
    out.patterns.push_back(std::move(pr));
  }
  for (std::size_t c = 0; c < w.collectives.size(); ++c) {
    const Collective& collective = w.collectives[c].collective;
    CollectiveResult cr = collective_result(collective);
    cr.job = w.collectives[c].job;
    cr.leaves = w.collectives[c].leaves;
    for (unsigned s = 0; s < kNumSchemes; ++s) {
      std::vector<InstanceFigures> phases;
      for (std::size_t first : w.plan.first_unit[c]) phases.push_back(figures[first + s]);
      CollectiveFigures cf = collective_figures(collective, phases, scheme_name(static_cast<Scheme>(s)));
      if (cf.slowest_phase < phases.size()) {
        cf.hottest_cables = name_channels(topo, tracer, phases[cf.slowest_phase].hottest);
        cf.cables_at_max_load = phases[cf.slowest_phase].hottest.at_max;
      }
      cr.schemes.push_back(std::move(cf));
    }
    out.collectives.push_back(std::move(cr));
  }
  return out;
}

/// Evaluate `units` on one fabric and assemble its Comparison (endpoints as `endpoints`; QPs per flow of
/// ib-adaptive and per connection of roce-eecmp from `options`; the threads' buffers in `workspaces`).
Comparison run_on(const Topology& topo, const FlowTracer& tracer, const RoutePlan& plan, const AdaptivePlan* adaptive,
                  const CompareOptions& options, const Workload& w, const std::vector<Unit>& units,
                  std::size_t endpoints, std::deque<EvalWorkspace>& workspaces) {
  const unsigned qps = std::max(1u, options.qps);
  const unsigned eecmp_qps = options.qps ? options.qps : kDefaultEecmpQps;
  const SchemeEvaluator evaluator(tracer, plan, adaptive,
                                  EvalOptions{qps, options.hash_seed, options.per_switch_hash_seed, eecmp_qps});
  const auto figures = evaluate_units(evaluator, units, options.threads, workspaces);
  Comparison out = assemble(w, units, figures, adaptive != nullptr, eecmp_qps, topo, tracer);
  out.endpoints = endpoints;
  out.qps = qps;
  out.eecmp_qps = eecmp_qps;
  out.notes = comparison_notes(plan, adaptive != nullptr, qps);
  out.notes.insert(out.notes.end(), w.notes.begin(), w.notes.end());
  return out;
}

/// [endpoint before] its index among `after`'s endpoints (the same CA port), kNoEndpoint when it has none.
std::vector<std::uint32_t> endpoints_after(const FlowTracer& before, const FlowTracer& after) {
  std::unordered_map<std::uint64_t, std::uint32_t> index;
  const auto key = [](const Endpoint& e) { return (static_cast<std::uint64_t>(e.ca) << 8) | e.port; };
  for (std::uint32_t i = 0; i < after.endpoints().size(); ++i) index.emplace(key(after.endpoints()[i]), i);
  std::vector<std::uint32_t> out;
  for (const Endpoint& e : before.endpoints()) {
    const auto it = index.find(key(e));
    out.push_back(it == index.end() ? kNoEndpoint : it->second);
  }
  return out;
}

/// "N of M endpoints cut off (first names)": what the figures after count as unrouted, said.
std::string cut_off_note(const Topology& topo, const FlowTracer& before, const std::vector<Endpoint>& cut_off) {
  constexpr std::size_t kListed = 4;
  std::string names;
  for (std::size_t i = 0; i < cut_off.size() && i < kListed; ++i) {
    const Endpoint& e = cut_off[i];
    names += (i ? ", " : "") + topo.node(e.ca).description + "[" + std::to_string(e.port) + "]";
  }
  if (cut_off.size() > kListed) names += ", ...";
  return "after the loss: " + std::to_string(cut_off.size()) + " of " + std::to_string(before.endpoints().size()) +
         " endpoints are cut off (" + names + "); every flow to or from them counts as unrouted under every scheme";
}

}  // namespace

Result<Comparison> compare_schemes(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                   const RoutePlan& plan, const CompareOptions& options) {
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  auto w = make_workload(tracer, options);
  if (!w) return w.error();
  std::deque<EvalWorkspace> workspaces;
  return run_on(topo, tracer, plan, tables.adaptive.get(), options, *w, w->plan.units, tracer.endpoints().size(),
                workspaces);
}

Result<LossComparison> compare_before_after(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                            const RoutePlan& plan, const FabricAfterLoss& after,
                                            const CompareOptions& options) {
  if (!after.topo || !after.tables || !after.plan) {
    return make_error(ErrorCode::kInvalidInput, "comparison after the loss: fabric, tables or plan missing");
  }
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  auto w = make_workload(tracer, options);
  if (!w) return w.error();
  const std::size_t n = tracer.endpoints().size();
  LossComparison out;
  std::deque<EvalWorkspace> workspaces;  // both runs' threads: the run after reuses the memory of the run before
  out.before = run_on(topo, tracer, plan, tables.adaptive.get(), options, *w, w->plan.units, n, workspaces);

  const FlowTracer tracer_after(*after.topo, lids, *after.tables, after.tables->ca_order);
  const std::vector<std::uint32_t> to_after = endpoints_after(tracer, tracer_after);
  for (std::uint32_t e = 0; e < n; ++e) {
    if (to_after[e] == kNoEndpoint) out.cut_off.push_back(tracer.endpoints()[e]);
  }
  // The same instances in the endpoint numbering after; a unit's kNumSchemes copies share one. A deque:
  // the units point into it while it grows.
  std::unordered_map<const PatternInstance*, std::size_t> copy_of;
  std::deque<PatternInstance> copies;
  std::vector<Unit> units = w->plan.units;
  for (Unit& u : units) {
    auto [it, fresh] = copy_of.emplace(u.instance, copies.size());
    if (fresh) {
      PatternInstance& c = copies.emplace_back(*u.instance);
      for (FlowPair& f : c.flows) f = FlowPair{to_after[f.src], to_after[f.dst]};
    }
    u.instance = &copies[it->second];
  }
  out.after =
      run_on(*after.topo, tracer_after, *after.plan, after.tables->adaptive.get(), options, *w, units, n, workspaces);
  if (!out.cut_off.empty()) out.after.notes.push_back(cut_off_note(topo, tracer, out.cut_off));
  return out;
}

}  // namespace smd::roce
