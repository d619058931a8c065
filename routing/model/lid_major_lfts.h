// LFT entries staged LID-major while an engine routes one destination LID at a time across every switch.
// Written straight into the per-switch tables, each LID costs one cache miss per switch (S tables of
// LIDs bytes each); staged as [LID][switch] rows and stored tile by tile, the same bytes move in
// 64 x 64 squares that stay in L1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"

namespace smd {

/// Rows of out-ports, one per LID 0..max_lid, each indexed by SwitchIndex. Memory: (max_lid + 1) * S bytes.
class LidMajorLfts {
 public:
  /// Every entry kNoPort, no LID staged.
  LidMajorLfts(std::size_t switches, Lid max_lid);

  /// Row of `lid` (lid <= max_lid): entry [s] is switch s's out-port. Marks the LID staged, so that store()
  /// writes its whole row, kNoPort entries included. Rows of distinct LIDs may be filled from distinct
  /// threads at the same time.
  PortNum* row(Lid lid) {
    staged_[lid] = 1;
    return &entries_[static_cast<std::size_t>(lid) * switches_];
  }

  /// Write every staged LID's entries into tables.lft[graph.node(s)] for each switch s of `graph`
  /// (graph.num_switches() must equal the row width), growing a table shorter than the highest staged LID
  /// as Lft::set does; entries of LIDs never staged are left as they are. Switches spread over `threads`
  /// (0 = hardware concurrency). Errors: none; tables.lft must cover every switch's NodeIndex.
  void store(const SwitchGraph& graph, RoutingTables& tables, unsigned threads = 0) const;

 private:
  std::size_t switches_;
  std::vector<PortNum> entries_;      // [lid * switches_ + s]
  std::vector<std::uint8_t> staged_;  // [lid] 1 once row(lid) was asked for
};

}  // namespace smd
