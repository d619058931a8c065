#include "routing/roce/maxmin.h"

#include <utility>

namespace smd::roce {
namespace {

using maxmin_detail::kAhead;

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
  maxmin_detail::fill(ChannelListPaths{offsets, channels}, num_channels, ws);
  return ws.rate;
}

BigVector<double> maxmin_rates(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> channels,
                               std::size_t num_channels) {
  MaxMinWorkspace ws;
  maxmin_rates(offsets, channels, num_channels, ws);
  return std::move(ws.rate);
}

}  // namespace smd::roce
