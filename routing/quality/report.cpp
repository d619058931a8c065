#include "routing/quality/report.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "routing/quality/all_to_all.h"
#include "routing/quality/flow_trace.h"
#include "routing/quality/seeded_shuffle.h"

namespace smd {
namespace {

using Flow = std::pair<std::uint32_t, std::uint32_t>;  // (source endpoint, destination endpoint)

struct PatternResult {
  std::uint32_t max_load = 0;
  std::uint64_t unreachable = 0;
  double bandwidth_sum = 0.0;  // sum over flows of 1 / (max load on the flow's path), 0 if it failed
  std::size_t flows = 0;
};

/// Per-thread buffers for one traffic pattern at a time.
struct PatternScratch {
  std::vector<std::uint32_t> load;  // [channel]
  std::vector<std::uint32_t> path;  // all flows' channels, back to back
  std::vector<std::size_t> begin;   // [flow] -> first channel in path; begin[i+1] ends it
  std::vector<std::uint8_t> ok;     // [flow]
  std::vector<Flow> flows;
  explicit PatternScratch(std::size_t channels) : load(channels, 0) {}
};

/// Trace every flow of sc.flows, count loads, and (for eBB) each flow's share of its worst cable.
PatternResult run_pattern(const FlowTracer& tracer, PatternScratch& sc, bool want_bandwidth) {
  PatternResult r;
  sc.path.clear();
  sc.begin.assign(1, 0);
  sc.ok.clear();
  for (const auto& [src, dst] : sc.flows) {
    const std::size_t start = sc.path.size();
    const bool arrived = tracer.trace(src, dst, sc.path);
    if (!arrived) {
      sc.path.resize(start);  // a failed flow loads nothing: it never gets through
      ++r.unreachable;
    }
    sc.ok.push_back(arrived ? 1 : 0);
    sc.begin.push_back(sc.path.size());
  }
  for (std::uint32_t c : sc.path) r.max_load = std::max(r.max_load, ++sc.load[c]);
  r.flows = sc.flows.size();
  if (want_bandwidth) {
    for (std::size_t f = 0; f < sc.flows.size(); ++f) {
      if (!sc.ok[f]) continue;
      std::uint32_t worst = 1;
      for (std::size_t i = sc.begin[f]; i < sc.begin[f + 1]; ++i) worst = std::max(worst, sc.load[sc.path[i]]);
      r.bandwidth_sum += 1.0 / worst;
    }
  }
  for (std::uint32_t c : sc.path) sc.load[c] = 0;
  return r;
}


/// The shift distances to evaluate (see QualityOptions::max_shifts and shift_flow_budget).
std::vector<std::uint32_t> shift_distances(std::size_t n, const QualityOptions& o) {
  std::vector<std::uint32_t> ks;
  if (n < 2) return ks;
  const std::size_t total = n - 1;
  std::size_t max_shifts = o.max_shifts == 0 ? total : o.max_shifts;
  if (o.shift_flow_budget != 0)
    max_shifts = std::min<std::size_t>(max_shifts, std::max<std::uint64_t>(1, o.shift_flow_budget / n));
  if (total <= max_shifts) {
    for (std::size_t k = 1; k <= total; ++k) ks.push_back(static_cast<std::uint32_t>(k));
    return ks;
  }
  for (std::size_t i = 0; i < max_shifts; ++i) ks.push_back(static_cast<std::uint32_t>(1 + i * total / max_shifts));
  return ks;
}

/// Run `count` patterns in parallel; make(i, flows) fills pattern i's flows.
template <typename Make>
std::vector<PatternResult> run_patterns(const FlowTracer& tracer, std::size_t count, unsigned threads,
                                        bool want_bandwidth, Make make) {
  std::vector<PatternResult> out(count);
  parallel_for_chunks(
      count, threads,
      [&](std::size_t first, std::size_t last) {
        PatternScratch sc(tracer.num_channels());
        for (std::size_t i = first; i < last; ++i) {
          sc.flows.clear();
          make(i, sc.flows);
          out[i] = run_pattern(tracer, sc, want_bandwidth);
        }
      },
      1);
  return out;
}

}  // namespace

Result<QualityReport> compute_quality(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                      const QualityOptions& options, const VerifyReport* verified) {
  QualityReport rep;
  std::optional<VerifyReport> own;
  if (verified == nullptr) {
    auto v = verify_tables(topo, lids, tables, false);
    if (!v) return v.error();
    own = std::move(v).value();
    verified = &*own;
  }
  rep.deadlock_free = verified->deadlock_free;
  rep.ca_deadlock_free = verified->ca_deadlock_free;
  rep.layered = verified->layered;
  rep.layers = verified->layers;
  rep.layer_cdg = verified->layer_cdg;
  rep.vls_available = tables.layering ? tables.layering->vls_available() : 0;
  const FlowTracer tracer(topo, lids, tables, tables.ca_order);
  const std::size_t n = tracer.endpoints().size();
  rep.endpoints = n;
  rep.pairs = n < 2 ? 0 : static_cast<std::uint64_t>(n) * (n - 1);
  rep.shifts_total = n < 2 ? 0 : n - 1;
  if (n < 2) return rep;

  const auto ks = shift_distances(n, options);
  const auto shifts = run_patterns(tracer, ks.size(), options.threads, false, [&](std::size_t i, auto& flows) {
    for (std::uint32_t s = 0; s < n; ++s) flows.emplace_back(s, static_cast<std::uint32_t>((s + ks[i]) % n));
  });
  rep.shifts_evaluated = ks.size();
  double shift_sum = 0;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    rep.unreachable_flows += shifts[i].unreachable;
    shift_sum += shifts[i].max_load;
    if (shifts[i].max_load > rep.shift_max_load) {
      rep.shift_max_load = shifts[i].max_load;
      rep.shift_worst_k = ks[i];
    }
  }
  rep.shift_mean_max_load = ks.empty() ? 0.0 : shift_sum / static_cast<double>(ks.size());

  const auto perms = run_patterns(tracer, options.perm_seeds, options.threads, false, [&](std::size_t i, auto& flows) {
    const auto p = seeded_shuffle(n, i + 1);
    for (std::uint32_t s = 0; s < n; ++s) {
      if (p[s] != s) flows.emplace_back(s, p[s]);
    }
  });
  rep.perm_seeds = options.perm_seeds;
  double perm_sum = 0;
  for (const auto& r : perms) {
    rep.unreachable_flows += r.unreachable;
    perm_sum += r.max_load;
    rep.perm_max_load_max = std::max(rep.perm_max_load_max, r.max_load);
  }
  rep.perm_max_load_mean = perms.empty() ? 0.0 : perm_sum / static_cast<double>(perms.size());

  // Bisection seeds are salted so that bisection i does not reuse permutation i's shuffle.
  const auto bisections =
      run_patterns(tracer, options.ebb_samples, options.threads, true, [&](std::size_t i, auto& flows) {
        const auto p = seeded_shuffle(n, 0x5eed0000ULL + i + 1);
        for (std::size_t a = 0; a < n / 2; ++a) {
          flows.emplace_back(p[a], p[n / 2 + a]);
          flows.emplace_back(p[n / 2 + a], p[a]);
        }
      });
  rep.ebb_samples = options.ebb_samples;
  double bw = 0;
  std::size_t flows = 0;
  for (const auto& r : bisections) {
    rep.unreachable_flows += r.unreachable;
    bw += r.bandwidth_sum;
    flows += r.flows;
  }
  rep.ebb = flows ? bw / static_cast<double>(flows) : 0.0;

  const AllToAllLoads all = all_to_all_loads(tracer, options.threads);
  rep.reachable_pairs = all.delivered_pairs;
  for (std::uint32_t c = 0; c < all.slot_load.size(); ++c) {
    if (tracer.is_switch_link(c)) rep.efi_max = std::max(rep.efi_max, all.slot_load[c]);
  }
  return rep;
}

}  // namespace smd
