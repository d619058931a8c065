// The min-hop ECMP groups of an EcmpTable (fib.h) laid out for walking millions of flows (scheme_eval.h):
// one row per destination switch d holding, for every switch s, a 16-bit id local to s, and each
// switch's distinct port lists stored once. A flow's walk toward d reads one row (2 bytes per switch),
// and the few port lists a fat-tree switch has (all up-ports; one down-port per child) stay cached.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "routing/roce/fib.h"

namespace smd::roce {

class HopGroups {
 public:
  /// Re-index `fib`. Local ids are 16 bits: a switch has at most one distinct group per destination
  /// switch, and an InfiniBand subnet has fewer than 49,152 switches (one unicast LID each).
  explicit HopGroups(const EcmpTable& fib);

  /// fib.group(s, d): the out-ports of s on a shortest path to d, ascending; empty if none.
  std::span<const PortNum> group(SwitchIndex s, SwitchIndex d) const { return local(s, row(d)[s]); }
  /// The row of destination d: index it by s and pass the value to local().
  const std::uint16_t* row(SwitchIndex d) const { return id_.data() + static_cast<std::size_t>(d) * n_; }
  /// Port list `id` of switch s.
  std::span<const PortNum> local(SwitchIndex s, std::uint16_t id) const {
    const std::uint32_t g = first_[s] + id;
    return {ports_.data() + start_[g], ports_.data() + start_[g + 1]};
  }

 private:
  std::size_t n_ = 0;
  std::vector<std::uint16_t> id_;     // [d * n + s] -> local id of fib.group(s, d)
  std::vector<std::uint32_t> first_;  // [s] index of s's first list in start_
  std::vector<std::uint32_t> start_;  // [list] first port in ports_ (+1 sentinel)
  std::vector<PortNum> ports_;
};

}  // namespace smd::roce
