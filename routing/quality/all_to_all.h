// All-to-all loads through the programmed LFTs: every ordered pair of distinct endpoints sends one flow.
// N*(N-1) traces would take minutes on 32k hosts; forwarding depends on (switch, LID) only, so the
// flows to one destination LID form an in-tree over the switches and each switch is walked once per LID.
#pragma once

#include <cstdint>
#include <vector>

#include "routing/quality/flow_trace.h"

namespace smd {

/// Flows per switch out-port and pair counts of all-to-all traffic between FlowTracer endpoints.
struct AllToAllLoads {
  /// [SwitchGraph slot] flows that leave by that switch port and arrive (delivery cables included);
  /// flows that the LFTs drop, loop or misdeliver load nothing, as in FlowTracer-based patterns.
  std::vector<std::uint64_t> slot_load;
  std::uint64_t delivered_pairs = 0;  ///< ordered pairs of distinct endpoints whose flow arrives
  std::uint64_t failed_pairs = 0;     ///< the other ordered pairs of distinct endpoints
};

/// Every ordered pair (src, dst) of distinct endpoints of `tracer`, dst addressed by its base LID, judged
/// by the hop rule of routing/model/lft_walk.h exactly as FlowTracer::trace judges it.
/// How: destinations are taken one 64-LID block at a time, the block's entries of every switch copied into
/// a switch-major matrix (L2-resident instead of S scattered tables); per destination, each switch on a
/// path is walked once (memoised: delivered at depth d, or failed), then the sources' weights (endpoints
/// on each switch) are pushed from the deepest switch towards the destination.
/// Cost: O(LIDs * S) for the block copies plus O(destinations * switches on the in-tree); memory
/// O(S * 64 + slots) per thread; spread over `threads` (0 = hardware concurrency).
AllToAllLoads all_to_all_loads(const FlowTracer& tracer, unsigned threads = 0);

}  // namespace smd
