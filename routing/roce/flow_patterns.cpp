#include "routing/roce/flow_patterns.h"

#include <utility>

namespace smd::roce {

std::vector<FlowPair> shift_flows(std::size_t n, std::size_t k) {
  std::vector<FlowPair> flows;
  if (n < 2 || k % n == 0) return flows;
  flows.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    flows.push_back(FlowPair{static_cast<std::uint32_t>(i), static_cast<std::uint32_t>((i + k) % n)});
  }
  return flows;
}

std::vector<FlowPair> permutation_flows(std::size_t n, std::uint64_t seed) {
  const auto perm = seeded_shuffle(n, seed);
  std::vector<FlowPair> flows;
  flows.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (perm[i] != i) flows.push_back(FlowPair{static_cast<std::uint32_t>(i), perm[i]});
  }
  return flows;
}

std::vector<FlowPair> bisection_flows(std::size_t n, std::uint64_t seed) {
  const auto order = seeded_shuffle(n, seed);
  std::vector<FlowPair> flows;
  flows.reserve(n);
  for (std::size_t j = 0; j + 1 < n; j += 2) {
    flows.push_back(FlowPair{order[j], order[j + 1]});
    flows.push_back(FlowPair{order[j + 1], order[j]});
  }
  return flows;
}

std::vector<Pattern> make_patterns(std::size_t n, const PatternOptions& o) {
  std::vector<Pattern> patterns;
  if (n < 2) return patterns;
  Pattern shift{"shift", {}};
  const std::size_t total = n - 1;
  const bool all = o.max_shifts == 0 || total <= o.max_shifts;
  const std::size_t count = all ? total : o.max_shifts;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t k = all ? i + 1 : 1 + i * total / o.max_shifts;
    shift.instances.push_back(PatternInstance{shift_flows(n, k), k});
  }
  patterns.push_back(std::move(shift));
  Pattern perm{"permutation", {}};
  Pattern bisect{"bisection", {}};
  for (unsigned s = 1; s <= o.seeds; ++s) {
    perm.instances.push_back(PatternInstance{permutation_flows(n, s), s});
    bisect.instances.push_back(PatternInstance{bisection_flows(n, s), s});
  }
  patterns.push_back(std::move(perm));
  patterns.push_back(std::move(bisect));
  if (o.all_to_all) {
    PatternInstance all_pairs{{}, 1};
    all_pairs.flows.reserve(n * (n - 1));
    for (std::uint32_t s = 0; s < n; ++s) {
      for (std::uint32_t d = 0; d < n; ++d) {
        if (s != d) all_pairs.flows.push_back(FlowPair{s, d});
      }
    }
    patterns.push_back(Pattern{"all-to-all", {std::move(all_pairs)}});
  }
  if (!o.pairs.empty()) patterns.push_back(Pattern{"pairs", {PatternInstance{o.pairs, 1}}});
  return patterns;
}

}  // namespace smd::roce
