// How much a PMA counter moved between two reads (IBA 16.1.3.5, 16.1.4.11). PortCounters' error counters
// stop at all ones, so a counter found there only says "at least this much"; PortCountersExtended's
// 64-bit counters wrap. A smaller value than last time means someone cleared a saturating counter
// (another PerfMgr, perfquery -R) or a wrapping one wrapped. Pure: no state, no clock.
#pragma once

#include <cstdint>

namespace smd {

/// How a counter behaves at its top (IBA 16.1.3.5: PortCounters' counters stop at all ones;
/// PortCountersExtended's wrap at 2^64; the 32-bit legacy data counters of a PMA without extended counters
/// are treated as wrapping at 2^32 — many PMAs do).
enum class CounterKind : std::uint8_t { kSaturating, kWrapping };

/// The increase of one counter, and what the two reads said about it.
struct CounterDelta {
  std::uint64_t value = 0;  ///< the increase (a lower bound when saturated)
  bool saturated = false;   ///< kSaturating only: `now` is all ones
  bool reset_seen = false;  ///< kSaturating only: `now` < `before`, the counter was cleared in between
  bool wrapped = false;     ///< kWrapping only: `now` < `before`, the counter went round once
};

/// All ones in `width_bits` (1..64) bits: the top of a counter of that width.
inline constexpr std::uint64_t counter_max(unsigned width_bits) {
  return width_bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width_bits) - 1;
}

/// The increase of a `width_bits`-wide (1..64) counter from `before` to `now`; both are taken modulo
/// 2^width_bits (bits above the width are dropped).
/// kSaturating: now == all ones -> saturated (value = now - before, a lower bound); now < before -> the
///   counter was cleared by someone (reset_seen, value = now); else now - before.
/// kWrapping: now < before -> wrapped (value = now + 2^width - before, no overflow at width 64); all ones is
///   not special.
CounterDelta counter_delta(std::uint64_t before, std::uint64_t now, unsigned width_bits, CounterKind kind);

}  // namespace smd
