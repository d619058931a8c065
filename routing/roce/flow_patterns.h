// Traffic patterns for the IB-vs-RoCE comparison: the ones DESIGN.md ("Routing quality") defines, over
// endpoints numbered 0..n-1 (the FlowTracer endpoint order, i.e. the engine's CA order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "routing/quality/seeded_shuffle.h"

namespace smd::roce {

/// One flow: endpoint src sends to endpoint dst (src != dst).
struct FlowPair {
  std::uint32_t src = 0;
  std::uint32_t dst = 0;
};

/// One set of flows that run at the same time (one shift k, one permutation seed, ...). `seed` feeds
/// the per-flow randomness of the schemes (RoCE source ports, adaptive placement order).
struct PatternInstance {
  std::vector<FlowPair> flows;
  std::uint64_t seed = 0;
};

/// A named pattern and its instances; figures are aggregated over the instances.
struct Pattern {
  std::string name;
  std::vector<PatternInstance> instances;
};

struct PatternOptions {
  /// Shifts k evaluated: all n-1 when n-1 <= max_shifts, else max_shifts values k = 1 + i*(n-1)/max_shifts
  /// spread evenly (the same rule as QualityOptions::max_shifts). 0 = all.
  unsigned max_shifts = 64;
  unsigned seeds = 20;          ///< random permutations and random bisections, seeds 1..seeds
  bool all_to_all = true;       ///< n*(n-1) flows in one instance
  std::vector<FlowPair> pairs;  ///< a user-given pair list (one instance, named "pairs"); empty = none
};

/// Shift k: flow i -> (i + k) mod n for every i.
std::vector<FlowPair> shift_flows(std::size_t n, std::size_t k);

/// The permutation the patterns draw from (routing/quality/seeded_shuffle.h).
using smd::seeded_shuffle;

/// Random permutation: i -> perm[i]; fixed points (i -> i) are dropped (they cross no cable).
std::vector<FlowPair> permutation_flows(std::size_t n, std::uint64_t seed);

/// Random bisection (Hoefler et al. 2008): shuffle, pair positions 2j and 2j+1, both directions. With
/// odd n the last endpoint of the shuffle sits out.
std::vector<FlowPair> bisection_flows(std::size_t n, std::uint64_t seed);

/// Every pattern of `options`, in the order: shift, permutation, bisection, all-to-all, pairs.
std::vector<Pattern> make_patterns(std::size_t n, const PatternOptions& options);

}  // namespace smd::roce
