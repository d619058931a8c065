// Max-min fair rates by progressive filling (water-filling; Bertsekas & Gallager, "Data Networks",
// section 6.5.2): raise every unfrozen flow's rate together; when a link saturates, freeze the flows
// crossing it at the link's fair share; repeat. Link capacity is 1 (line rate), so rates are shares of
// line rate.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include "routing/roce/big_vector.h"

namespace smd::roce {

/// The buffers of one maxmin_rates call. Passing the same workspace to repeated calls keeps their
/// memory (an all-to-all on 1728 hosts needs about 100 MB) instead of allocating it, and having the
/// kernel zero it, every time.
struct MaxMinWorkspace {
  std::vector<std::uint32_t> start, fill, active;  // per channel (+1)
  std::vector<double> remaining;                   // per channel
  BigVector<std::uint32_t> members;                // per path entry: the channel -> flows transpose
  BigVector<std::uint8_t> frozen;                  // per flow
  BigVector<double> rate;                          // per flow: the result
};

/// Paths as flat arrays: flow f crosses channels[offsets[f] .. offsets[f+1]). The form maxmin_rates
/// takes; any other path store passed to maxmin_rates_of offers the same four calls.
struct ChannelListPaths {
  std::span<const std::uint32_t> offsets, channels;

  std::size_t units() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::size_t entries() const { return channels.size(); }
  /// fn(channel) for every channel of flow f, in path order.
  template <class Fn>
  void for_each(std::size_t f, Fn&& fn) const {
    for (std::uint32_t j = offsets[f]; j < offsets[f + 1]; ++j) fn(channels[j]);
  }
  void prefetch_index(std::size_t f) const { __builtin_prefetch(&offsets[f]); }
  void prefetch_path(std::size_t f) const { __builtin_prefetch(&channels[offsets[f]]); }
};

namespace maxmin_detail {

/// Prefetch distance in the transpose and freezing loops (entries): both touch memory at random.
inline constexpr std::uint32_t kAhead = 8;

/// Progressive filling once ws.start / ws.members (channel -> flows) are built, ws.rate and ws.frozen
/// sized and zero: every path form shares it, so the rates do not depend on how paths are stored.
template <class Paths>
void fill(const Paths& paths, std::size_t num_channels, MaxMinWorkspace& ws) {
  const auto& start = ws.start;
  const auto& members = ws.members;
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
      // A channel's flows lie anywhere in the path store: fetch ahead, their index first, then the
      // path it points at (the memory latency, not the arithmetic, bounds this loop).
      if (i + 2 * kAhead < end) paths.prefetch_index(members[i + 2 * kAhead]);
      if (i + kAhead < end) {
        const std::uint32_t ahead = members[i + kAhead];
        __builtin_prefetch(&frozen[ahead]);
        paths.prefetch_path(ahead);
      }
      const std::uint32_t f = members[i];
      if (frozen[f]) continue;
      frozen[f] = 1;
      rate[f] = current;
      paths.for_each(f, [&](std::uint32_t ch) {
        remaining[ch] -= current;
        --active[ch];
      });
    }
  }
}

}  // namespace maxmin_detail

namespace maxmin_detail {

/// The channel -> flows transpose of `paths` once ws.start[c + 1] holds the number of flows crossing
/// channel c, then the filling. The transpose decodes each path twice, first to fetch the list ends it
/// will write, then to write them.
template <class Paths>
void transpose_and_fill(const Paths& paths, std::size_t num_channels, MaxMinWorkspace& ws) {
  const std::size_t flows = paths.units();
  ws.rate.assign(flows, 0.0);
  ws.frozen.assign(flows, 0);
  auto& start = ws.start;
  for (std::size_t c = 0; c < num_channels; ++c) start[c + 1] += start[c];
  ws.members.clear();
  ws.members.resize(start[num_channels]);
  auto& members = ws.members;
  ws.fill.assign(start.begin(), start.end() - 1);
  auto& write_at = ws.fill;
  for (std::size_t f = 0; f < flows; ++f) {
    paths.for_each(f, [&](std::uint32_t c) { __builtin_prefetch(&members[write_at[c]], 1); });
    paths.for_each(f, [&](std::uint32_t c) { members[write_at[c]++] = static_cast<std::uint32_t>(f); });
  }
  fill(paths, num_channels, ws);
}

}  // namespace maxmin_detail

/// maxmin_rates over any path store (ChannelListPaths' four calls): the same rates, bit for bit, as
/// maxmin_rates over the same paths written out as channel lists.
template <class Paths>
std::span<const double> maxmin_rates_of(const Paths& paths, std::size_t num_channels, MaxMinWorkspace& ws) {
  const std::size_t flows = paths.units();
  ws.start.assign(num_channels + 1, 0);
  for (std::size_t f = 0; f < flows; ++f) paths.for_each(f, [&](std::uint32_t c) { ++ws.start[c + 1]; });
  maxmin_detail::transpose_and_fill(paths, num_channels, ws);
  return ws.rate;
}

/// maxmin_rates_of when the caller already counted the flows crossing each channel while it built the
/// paths (`counts[c]`, num_channels entries), which spares one decoding of every path. The same rates,
/// bit for bit. Counts that differ from the paths' are the caller's bug (the transpose would write past
/// a channel's list).
template <class Paths>
std::span<const double> maxmin_rates_counted(const Paths& paths, std::span<const std::uint32_t> counts,
                                             std::size_t num_channels, MaxMinWorkspace& ws) {
  ws.start.resize(num_channels + 1);
  ws.start[0] = 0;
  std::copy_n(counts.begin(), num_channels, ws.start.begin() + 1);
  maxmin_detail::transpose_and_fill(paths, num_channels, ws);
  return ws.rate;
}

/// Flow paths in compressed form: flow f crosses channels[offsets[f] .. offsets[f+1]), each channel id
/// < num_channels and at most once per flow. Returns the max-min fair rate of every flow (0 for a flow
/// with an empty path), a view of `workspace.rate` valid until its next use. O(P log C) with P = total
/// path length, C = channels: a link's fair share (remaining capacity / unfrozen flows) never decreases
/// while filling, so a lazy min-heap suffices.
std::span<const double> maxmin_rates(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> channels,
                                     std::size_t num_channels, MaxMinWorkspace& workspace);

/// The same with a workspace of its own.
BigVector<double> maxmin_rates(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> channels,
                               std::size_t num_channels);

}  // namespace smd::roce
