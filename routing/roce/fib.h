// ECMP next-hop groups per ordered switch pair (s, d): the out-ports of s toward switch d. build() gives
// the min-hop groups: every port of s whose neighbour is one hop closer to d (parallel cables are
// separate members). What eBGP installs is a subset of them, computed by bgp_fib.h under BGP's own-AS
// rule into the same shape (from_groups).
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

  /// A table from groups laid out as build() lays them out: offset has n*n + 1 entries, group (s, d) is
  /// ports[offset[s*n + d] .. offset[s*n + d + 1]), ascending.
  static EcmpTable from_groups(std::size_t n, std::vector<std::uint32_t> offset, std::vector<PortNum> ports);

  std::size_t num_switches() const { return n_; }
  /// Out-ports of switch s toward switch d, ascending; empty if s == d or d is not reached.
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
