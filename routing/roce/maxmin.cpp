#include "routing/roce/maxmin.h"

#include <algorithm>
#include <queue>
#include <utility>

namespace smd::roce {
namespace {

/// Prefetch distance in the transpose and freezing loops (entries): both touch memory at random.
constexpr std::uint32_t kAhead = 8;

/// Reuse `v` for `size` elements; the memory is kept from earlier calls and only written, not zeroed.
template <class Vector>
void reuse(Vector& v, std::size_t size) {
  v.clear();
  v.resize(size);
}

}  // namespace

std::span<const double> maxmin_rates(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> channels,
                                     std::size_t num_channels, MaxMinWorkspace& ws) {
  const std::size_t flows = offsets.empty() ? 0 : offsets.size() - 1;
  ws.rate.assign(flows, 0.0);
  ws.frozen.assign(flows, 0);
  // Channel -> flows crossing it (compressed), unfrozen count and remaining capacity per channel.
  auto& start = ws.start;
  start.assign(num_channels + 1, 0);
  for (std::uint32_t c : channels) ++start[c + 1];
  for (std::size_t c = 0; c < num_channels; ++c) start[c + 1] += start[c];
  reuse(ws.members, channels.size());
  auto& members = ws.members;
  ws.fill.assign(start.begin(), start.end() - 1);
  auto& fill = ws.fill;
  for (std::size_t f = 0; f < flows; ++f) {
    const std::uint32_t last = offsets[f + 1];
    for (std::uint32_t i = offsets[f]; i < last; ++i) {
      // Every write opens another channel's list: ask for the line a few entries early.
      if (i + kAhead < channels.size()) __builtin_prefetch(&members[fill[channels[i + kAhead]]], 1);
      members[fill[channels[i]]++] = static_cast<std::uint32_t>(f);
    }
  }
  auto& active = ws.active;
  active.resize(num_channels);
  ws.remaining.assign(num_channels, 1.0);
  auto& remaining = ws.remaining;
  using Entry = std::pair<double, std::uint32_t>;  // (fair share, channel)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t c = 0; c < num_channels; ++c) {
    active[c] = start[c + 1] - start[c];
    if (active[c]) heap.emplace(1.0 / active[c], static_cast<std::uint32_t>(c));
  }
  auto& frozen = ws.frozen;
  auto& rate = ws.rate;
  while (!heap.empty()) {
    const auto [share, c] = heap.top();
    heap.pop();
    if (active[c] == 0) continue;
    const double current = std::max(0.0, remaining[c]) / active[c];
    if (current > share * (1 + 1e-12) + 1e-15) {  // stale entry: the share rose since it was pushed
      heap.emplace(current, c);
      continue;
    }
    const std::uint32_t end = start[c + 1];
    for (std::uint32_t i = start[c]; i < end; ++i) {
      // A channel's flows lie anywhere in the path arrays: fetch ahead, their offsets first, then the
      // path the offset points at (the memory latency, not the arithmetic, bounds this loop).
      if (i + 2 * kAhead < end) __builtin_prefetch(&offsets[members[i + 2 * kAhead]]);
      if (i + kAhead < end) {
        const std::uint32_t ahead = members[i + kAhead];
        __builtin_prefetch(&frozen[ahead]);
        __builtin_prefetch(&channels[offsets[ahead]]);
      }
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

BigVector<double> maxmin_rates(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> channels,
                               std::size_t num_channels) {
  MaxMinWorkspace ws;
  maxmin_rates(offsets, channels, num_channels, ws);
  return std::move(ws.rate);
}

}  // namespace smd::roce
