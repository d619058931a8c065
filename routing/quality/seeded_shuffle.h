// The one seeded permutation the quality report's random patterns and the RoCE comparison draw from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace smd {

/// 0..n-1 shuffled by Fisher-Yates with plain modulo over std::mt19937_64(seed), so that a seed gives the
/// same order with every standard library (std::shuffle and the distributions are implementation-defined).
/// O(n).
std::vector<std::uint32_t> seeded_shuffle(std::size_t n, std::uint64_t seed);

}  // namespace smd
