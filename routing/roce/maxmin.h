// Max-min fair rates by progressive filling (water-filling; Bertsekas & Gallager, "Data Networks",
// section 6.5.2): raise every unfrozen flow's rate together; when a link saturates, freeze the flows
// crossing it at the link's fair share; repeat. Link capacity is 1 (line rate), so rates are shares of
// line rate.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace smd::roce {

/// Flow paths in compressed form: flow f crosses channels[offsets[f] .. offsets[f+1]), each channel id
/// < num_channels and at most once per flow. Returns the max-min fair rate of every flow (0 for a flow
/// with an empty path). O(P log C) with P = total path length, C = channels: a link's fair share
/// (remaining capacity / unfrozen flows) never decreases while filling, so a lazy min-heap suffices.
std::vector<double> maxmin_rates(std::span<const std::uint32_t> offsets, std::span<const std::uint32_t> channels,
                                 std::size_t num_channels);

}  // namespace smd::roce
