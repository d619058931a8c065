// seeded_shuffle: a permutation of 0..n-1 that depends on the seed only, shared by the quality report's
// random permutations and bisections and the RoCE comparison's patterns.
#include "routing/quality/seeded_shuffle.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>

namespace smd::seeded_shuffle_test {
namespace {

TEST(SeededShuffle, IsAPermutationOfAllIndices) {
  for (std::size_t n : {0u, 1u, 2u, 7u, 1000u}) {
    std::vector<std::uint32_t> v = seeded_shuffle(n, 42);
    ASSERT_EQ(v.size(), n);
    std::sort(v.begin(), v.end());
    std::vector<std::uint32_t> want(n);
    std::iota(want.begin(), want.end(), 0u);
    EXPECT_EQ(v, want) << "n=" << n;
  }
}

TEST(SeededShuffle, SameSeedSameOrderOtherSeedAnotherOrder) {
  EXPECT_EQ(seeded_shuffle(500, 7), seeded_shuffle(500, 7));
  EXPECT_NE(seeded_shuffle(500, 7), seeded_shuffle(500, 8));
  std::vector<std::uint32_t> identity(500);
  std::iota(identity.begin(), identity.end(), 0u);
  EXPECT_NE(seeded_shuffle(500, 7), identity);
}

// Fisher-Yates over std::mt19937_64, whose output the C++ standard fixes ([rand.predef]: the 10000th
// value of a default-seeded engine is 9981545732273789042), so the order is the same with every library.
TEST(SeededShuffle, FollowsTheStandardEngineStepByStep) {
  std::mt19937_64 check;
  check.discard(9999);
  ASSERT_EQ(check(), 9981545732273789042ULL);
  const std::uint64_t seed = 5489;  // the engine's default seed
  std::mt19937_64 rng(seed);
  const std::uint64_t first = rng();  // what swaps v[2] with v[first % 3]
  const std::uint64_t second = rng();  // then v[1] with v[second % 2]
  std::vector<std::uint32_t> want{0, 1, 2};
  std::swap(want[2], want[first % 3]);
  std::swap(want[1], want[second % 2]);
  EXPECT_EQ(seeded_shuffle(3, seed), want);
}

}  // namespace
}  // namespace smd::seeded_shuffle_test
