// ECMP next-hop groups of a shortest-path L3 fabric: for switch s and destination switch d, every port of
// s whose neighbour is one hop closer to d. That is the FIB eBGP with "maximum-paths" and "bestpath
// as-path multipath-relax" converges to in a Clos whose AS-path length equals the hop count (RFC 7938
// sections 5.2 and 6.1); parallel cables are separate members.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "routing/model/hop_table.h"

namespace smd::roce {

class EcmpTable {
 public:
  /// Groups for every ordered switch pair: O(S^2 * degree) time, S^2 offsets plus the members.
  /// `threads` = 0 picks the hardware concurrency.
  static EcmpTable build(const SwitchGraph& graph, const HopTable& hops, unsigned threads = 0);

  std::size_t num_switches() const { return n_; }
  /// Out-ports of switch s on a shortest path to switch d, ascending; empty if s == d or unreachable.
  std::span<const PortNum> group(SwitchIndex s, SwitchIndex d) const {
    const std::size_t i = static_cast<std::size_t>(s) * n_ + d;
    return {ports_.data() + offset_[i], ports_.data() + offset_[i + 1]};
  }

 private:
  std::size_t n_ = 0;
  std::vector<std::uint32_t> offset_;  // size n^2 + 1
  std::vector<PortNum> ports_;
};

}  // namespace smd::roce
