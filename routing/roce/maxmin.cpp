#include "routing/roce/maxmin.h"

#include <algorithm>
#include <queue>
#include <utility>

namespace smd::roce {

std::vector<double> maxmin_rates(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> channels,
                                 std::size_t num_channels) {
  const std::size_t flows = offsets.empty() ? 0 : offsets.size() - 1;
  std::vector<double> rate(flows, 0.0);
  // Channel -> flows crossing it (compressed), unfrozen count and remaining capacity per channel.
  std::vector<std::uint32_t> start(num_channels + 1, 0);
  for (std::uint32_t c : channels) ++start[c + 1];
  for (std::size_t c = 0; c < num_channels; ++c) start[c + 1] += start[c];
  std::vector<std::uint32_t> members(channels.size());
  std::vector<std::uint32_t> fill(start.begin(), start.end() - 1);
  for (std::size_t f = 0; f < flows; ++f) {
    for (std::uint32_t i = offsets[f]; i < offsets[f + 1]; ++i)
      members[fill[channels[i]]++] = static_cast<std::uint32_t>(f);
  }
  std::vector<std::uint32_t> active(num_channels);
  std::vector<double> remaining(num_channels, 1.0);
  using Entry = std::pair<double, std::uint32_t>;  // (fair share, channel)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t c = 0; c < num_channels; ++c) {
    active[c] = start[c + 1] - start[c];
    if (active[c]) heap.emplace(1.0 / active[c], static_cast<std::uint32_t>(c));
  }
  std::vector<std::uint8_t> frozen(flows, 0);
  while (!heap.empty()) {
    const auto [share, c] = heap.top();
    heap.pop();
    if (active[c] == 0) continue;
    const double current = std::max(0.0, remaining[c]) / active[c];
    if (current > share * (1 + 1e-12) + 1e-15) {  // stale entry: the share rose since it was pushed
      heap.emplace(current, c);
      continue;
    }
    for (std::uint32_t i = start[c]; i < start[c + 1]; ++i) {
      const std::uint32_t f = members[i];
      if (frozen[f]) continue;
      frozen[f] = 1;
      rate[f] = current;
      for (std::uint32_t j = offsets[f]; j < offsets[f + 1]; ++j) {
        remaining[channels[j]] -= current;
        --active[channels[j]];
      }
    }
  }
  return rate;
}

}  // namespace smd::roce
