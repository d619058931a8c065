// maxmin_rates_of (maxmin.h) over a path store other than channel lists gives the rates maxmin_rates
// gives over the same paths, bit for bit: the comparison's evaluator keeps its paths as ports
// (scheme_eval.h PortPaths) and its figures must not move. Here the other store holds each path
// reversed, so only the order in which a path's channels are visited differs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "routing/roce/maxmin.h"

namespace smd::roce::roce_maxmin_paths_test {
namespace {

struct ReversedPaths {
  std::span<const std::uint32_t> offsets, channels;
  std::size_t units() const { return offsets.size() - 1; }
  std::size_t entries() const { return channels.size(); }
  template <class Fn>
  void for_each(std::size_t f, Fn&& fn) const {
    for (std::uint32_t j = offsets[f + 1]; j > offsets[f]; --j) fn(channels[j - 1]);
  }
  void prefetch_index(std::size_t) const {}
  void prefetch_path(std::size_t) const {}
};

TEST(MaxMinPaths, AnyPathStoreGivesTheSameRatesBitForBit) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    std::mt19937 rng(seed);
    const std::size_t channels_n = 40;
    std::vector<std::uint32_t> offsets{0}, channels;
    for (int f = 0; f < 600; ++f) {
      std::vector<std::uint32_t> path;
      const int hops = 1 + static_cast<int>(rng() % 6);
      while (static_cast<int>(path.size()) < hops) {
        const auto c = static_cast<std::uint32_t>(rng() % channels_n);
        if (std::find(path.begin(), path.end(), c) == path.end()) path.push_back(c);
      }
      channels.insert(channels.end(), path.begin(), path.end());
      offsets.push_back(static_cast<std::uint32_t>(channels.size()));
    }
    const auto want = maxmin_rates(offsets, channels, channels_n);
    MaxMinWorkspace ws;
    const auto got = maxmin_rates_of(ReversedPaths{offsets, channels}, channels_n, ws);
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t f = 0; f < want.size(); ++f) {
      EXPECT_EQ(got[f], want[f]) << "seed " << seed << " flow " << f;
    }
    // And again on the same workspace: the kept buffers change nothing.
    const auto again = maxmin_rates_of(ChannelListPaths{offsets, channels}, channels_n, ws);
    for (std::size_t f = 0; f < want.size(); ++f) EXPECT_EQ(again[f], want[f]);
  }
}

// maxmin_rates_counted (the evaluator counts each channel's flows while routing, maxmin.h) gives the
// rates of maxmin_rates over the same paths, bit for bit, when the counts are those of the paths: here
// counted from the channel lists by hand, on a reused workspace that held a bigger instance before.
TEST(MaxMinPaths, CountsGivenByTheCallerGiveTheSameRatesBitForBit) {
  MaxMinWorkspace ws;
  for (unsigned seed = 1; seed <= 5; ++seed) {
    std::mt19937 rng(seed);
    const std::size_t channels_n = 30 + 10 * seed;
    std::vector<std::uint32_t> offsets{0}, channels;
    std::vector<std::uint32_t> counts(channels_n, 0);
    const int flows = 900 - 100 * static_cast<int>(seed);  // shrinking: the workspace keeps older entries
    for (int f = 0; f < flows; ++f) {
      std::vector<std::uint32_t> path;
      const int hops = 1 + static_cast<int>(rng() % 7);
      while (static_cast<int>(path.size()) < hops) {
        const auto c = static_cast<std::uint32_t>(rng() % channels_n);
        if (std::find(path.begin(), path.end(), c) == path.end()) path.push_back(c);
      }
      for (const std::uint32_t c : path) ++counts[c];
      channels.insert(channels.end(), path.begin(), path.end());
      offsets.push_back(static_cast<std::uint32_t>(channels.size()));
    }
    const auto want = maxmin_rates(offsets, channels, channels_n);
    const auto got = maxmin_rates_counted(ReversedPaths{offsets, channels}, counts, channels_n, ws);
    ASSERT_EQ(got.size(), want.size());
    std::size_t distinct_rates = 0;
    for (std::size_t f = 0; f < want.size(); ++f) {
      EXPECT_EQ(got[f], want[f]) << "seed " << seed << " flow " << f;
      distinct_rates += f > 0 && want[f] != want[f - 1];
    }
    EXPECT_GT(distinct_rates, 10u) << "seed " << seed << ": rates too uniform to tell orders apart";
  }
}

}  // namespace
}  // namespace smd::roce::roce_maxmin_paths_test
