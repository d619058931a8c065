#include "routing/quality/seeded_shuffle.h"

#include <random>
#include <utility>

namespace smd {

std::vector<std::uint32_t> seeded_shuffle(std::size_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i);
  std::mt19937_64 rng(seed);
  for (std::size_t i = n; i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
  return v;
}

}  // namespace smd
