#include "routing/quality/path_diversity.h"

#include <algorithm>
#include <limits>

#include "routing/model/hop_table.h"
#include "routing/quality/all_to_all.h"
#include "routing/quality/flow_trace.h"

namespace smd {

std::vector<std::uint32_t> count_shortest_paths(const SwitchGraph& graph, SwitchIndex dst) {
  constexpr std::uint32_t kInf = std::numeric_limits<std::uint32_t>::max();
  constexpr std::uint64_t kCap = std::numeric_limits<std::uint32_t>::max();
  const std::size_t n = graph.num_switches();
  std::vector<std::uint32_t> dist(n, kInf);
  std::vector<std::uint32_t> count(n, 0);
  std::vector<SwitchIndex> queue{dst};
  dist[dst] = 0;
  count[dst] = 1;
  // BFS order is non-decreasing distance, so every switch one hop nearer is final when v is reached.
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const SwitchIndex v = queue[head];
    if (v != dst) {
      std::uint64_t sum = 0;
      for (const auto& link : graph.links(v)) {
        if (dist[link.peer] + 1 == dist[v]) sum = std::min(kCap, sum + count[link.peer]);
      }
      count[v] = static_cast<std::uint32_t>(sum);
    }
    for (const auto& link : graph.links(v)) {
      if (dist[link.peer] == kInf) dist[link.peer] = dist[v] + 1, queue.push_back(link.peer);
    }
  }
  return count;
}

namespace {

/// LMC 0 everywhere: one LID, hence one path, per pair. Every pair that arrives has a path between its
/// switches, so it has enough shortest paths and uses all of them.
void one_path_per_pair(const FlowTracer& tracer, unsigned threads, const QualityReport* quality,
                       PathDiversityReport& r) {
  const std::uint64_t n = tracer.endpoints().size();
  const std::uint64_t all = n < 2 ? 0 : n * (n - 1);
  if (quality != nullptr && quality->pairs == all) {
    r.pairs = quality->reachable_pairs;
  } else {
    r.pairs = all_to_all_loads(tracer, threads).delivered_pairs;
  }
  r.unreachable_pairs = all - r.pairs;
  r.min_distinct = r.pairs ? 1 : 0;
  r.mean_distinct = r.pairs ? 1.0 : 0.0;
  r.pairs_with_enough_paths = r.pairs;
  r.pairs_full = r.pairs;
  r.full_share = 1.0;
}

/// LMC > 0: every LID of every pair traced from one endpoint per source switch.
void traced_paths(const FlowTracer& tracer, const std::vector<unsigned>& lid_count,
                  const std::vector<std::uint32_t>& first_ep, const std::vector<std::uint64_t>& eps_on,
                  PathDiversityReport& r) {
  const SwitchGraph& graph = tracer.graph();
  const auto& eps = tracer.endpoints();
  const std::size_t n = graph.num_switches();

  // Shortest-path counts towards every destination switch that has endpoints.
  std::vector<std::vector<std::uint32_t>> paths_to(n);
  for (const auto& ep : eps) {
    if (paths_to[ep.sw].empty()) paths_to[ep.sw] = count_shortest_paths(graph, ep.sw);
  }

  std::uint64_t distinct_sum = 0;
  r.min_distinct = std::numeric_limits<unsigned>::max();
  std::vector<std::vector<std::uint32_t>> traced;
  for (SwitchIndex s = 0; s < n; ++s) {
    if (eps_on[s] == 0) continue;
    for (std::uint32_t d = 0; d < eps.size(); ++d) {
      const std::uint64_t weight = eps_on[s] - (eps[d].sw == s ? 1 : 0);  // distinct ports only
      if (weight == 0) continue;
      traced.assign(lid_count[d], {});
      bool ok = true;
      for (unsigned x = 0; x < lid_count[d] && ok; ++x) ok = tracer.trace(first_ep[s], d, traced[x], x);
      if (!ok) {
        r.unreachable_pairs += weight;
        continue;
      }
      std::sort(traced.begin(), traced.end());
      const auto distinct = static_cast<unsigned>(std::unique(traced.begin(), traced.end()) - traced.begin());
      r.pairs += weight;
      distinct_sum += weight * distinct;
      r.min_distinct = std::min(r.min_distinct, distinct);
      if (paths_to[eps[d].sw][s] >= lid_count[d]) {
        r.pairs_with_enough_paths += weight;
        if (distinct == lid_count[d]) {
          r.pairs_full += weight;
        } else if (r.short_pairs.size() < 16) {
          r.short_pairs.emplace_back(eps[first_ep[s]].ca, eps[d].ca);
        }
      }
    }
  }
  if (r.pairs == 0) r.min_distinct = 0;
  r.mean_distinct = r.pairs ? static_cast<double>(distinct_sum) / static_cast<double>(r.pairs) : 0.0;
  r.full_share = r.pairs_with_enough_paths
                     ? static_cast<double>(r.pairs_full) / static_cast<double>(r.pairs_with_enough_paths)
                     : 1.0;
}

}  // namespace

Result<PathDiversityReport> compute_path_diversity(const Topology& topo, const LidMap& lids,
                                                   const RoutingTables& tables, unsigned threads,
                                                   const QualityReport* quality) {
  if (tables.lft.size() < topo.size()) {
    return make_error(ErrorCode::kInvalidInput, "path diversity: tables cover fewer nodes than the topology");
  }
  const FlowTracer tracer(topo, lids, tables, {});
  const SwitchGraph& graph = tracer.graph();
  const auto& eps = tracer.endpoints();
  const std::size_t n = graph.num_switches();
  PathDiversityReport r;

  std::vector<unsigned> lid_count(eps.size());
  std::vector<std::uint32_t> first_ep(n, 0xFFFFFFFFu);  // [switch] one endpoint cabled there (its paths)
  std::vector<std::uint64_t> eps_on(n, 0);              // [switch] endpoints cabled there
  for (std::uint32_t e = 0; e < eps.size(); ++e) {
    lid_count[e] = 1u << lids.lmc_of(eps[e].ca, eps[e].port);
    r.lids_per_port = std::max(r.lids_per_port, lid_count[e]);
    if (first_ep[eps[e].sw] == 0xFFFFFFFFu) first_ep[eps[e].sw] = e;
    ++eps_on[eps[e].sw];
  }
  if (r.lids_per_port == 1) {
    one_path_per_pair(tracer, threads, quality, r);
  } else {
    traced_paths(tracer, lid_count, first_ep, eps_on, r);
  }

  if (tables.adaptive) {
    for (SwitchIndex s = 0; s < n; ++s) {
      for (std::uint32_t d = 0; d < eps.size(); ++d) {
        for (unsigned x = 0; x < lid_count[d]; ++x) {
          const auto* group = tables.adaptive->group(graph.node(s), static_cast<Lid>(eps[d].lid + x));
          if (group == nullptr) continue;
          if (r.ar_group_sizes.size() <= group->size()) r.ar_group_sizes.resize(group->size() + 1, 0);
          ++r.ar_group_sizes[group->size()];
        }
      }
    }
  }
  return r;
}

}  // namespace smd
