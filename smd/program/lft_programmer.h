// LFT programming as a difference (OpenSM's set_lft_block idea): the SM remembers what each switch was
// acknowledged to hold, and writes only the 64-entry LinearForwardingTable blocks that differ (every
// block the first time it sees a switch), plus SwitchInfo:LinearFDBTop when it changes (IBA 14.2.5.4,
// 14.2.5.10). A block is believed written only when the switch's GetResp echoes it.
#pragma once

#include <unordered_map>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/model/forwarding.h"
#include "smd/fabric/discovered.h"

namespace smd {

struct ProgramCounts {
  unsigned switches = 0;        ///< switches whose tables were compared
  unsigned blocks_written = 0;  ///< LFT block Sets sent
  unsigned blocks_skipped = 0;  ///< blocks already believed correct
  unsigned blocks_failed = 0;   ///< Sets not acknowledged with the same content
  unsigned top_updates = 0;     ///< SwitchInfo Sets of LinearFDBTop
};

class LftProgrammer {
 public:
  /// Write every block of `tables` that differs from what each switch is believed to hold.
  /// Never writes above a switch's LinearFDBCap (a table that would is reported, not written).
  ProgramCounts program(SmpBatch& batch, Discovered& d, const RoutingTables& tables,
                        std::vector<SweepProblem>& problems);

  /// Forget what one switch holds (it rebooted or was replaced): its next program() writes everything.
  void forget(Guid switch_guid) { believed_.erase(switch_guid); }
  void forget_all() { believed_.clear(); }

  /// True when the switch is believed to hold exactly `want` (blocks and LinearFDBTop).
  bool holds(Guid switch_guid, const Lft& want) const;

 private:
  struct Believed {
    std::vector<std::array<std::uint8_t, kLftBlockSize>> blocks;
    std::vector<bool> valid;
    Lid top = 0;
    bool top_valid = false;
  };
  std::unordered_map<Guid, Believed> believed_;
};

}  // namespace smd
