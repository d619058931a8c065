// Max-min fair rates by progressive filling (water-filling; Bertsekas & Gallager, "Data Networks",
// section 6.5.2): raise every unfrozen flow's rate together; when a link saturates, freeze the flows
// crossing it at the link's fair share; repeat. Link capacity is 1 (line rate), so rates are shares of
// line rate.
#pragma once

#include <cstdint>
#include <span>
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
