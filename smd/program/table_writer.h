// The one writer every programmer sends its plan through (smd/program/table_write.h): every write is
// submitted at once (SmpBatch keeps the transport's window full), a write is believed only when its
// status-0 GetResp shows what was written (its EchoRule), and every answer is handed to the store of
// applied state (WriteRecorder), so that what the SM believes is only ever what an SMA acknowledged.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/table_write.h"

namespace smd {

/// Where the writer records what the SMAs answered; implemented beside each store of applied state.
class WriteRecorder {
 public:
  virtual ~WriteRecorder() = default;
  /// `w` was answered with status 0 and `reply`; `believed` is echoed(w, reply).
  virtual void answered(const TableWrite& w, const mad::SmpData& reply, bool believed) = 0;
  /// `w` got no status-0 answer after all its retries: the SMA may or may not have carried it out.
  virtual void unanswered(const TableWrite& w) = 0;
};

/// What one write_plan() call did.
struct WriteReport {
  unsigned sent = 0;        ///< Sets sent (one per write)
  unsigned believed = 0;    ///< answered and echoed
  unsigned not_echoed = 0;  ///< answered with status 0 but not showing what was written
  unsigned failed = 0;      ///< no status-0 answer
  /// Writes with no status-0 answer, as (index in the plan, reply), in the order they failed.
  std::vector<std::pair<std::size_t, mad::SmpReply>> failures;
};

/// Send `plan`, wait until every write is answered or has failed, record each in `recorder`. Every write
/// not believed becomes a problem naming node GUID, directed path and attribute (code kNotTaken when
/// answered but not echoed, else the transport's code, smd/program/smp_failure.h) — except writes with
/// EchoRule::kPortState: a PortState Set is not idempotent, so its caller reads the port back first and
/// decides (smd/program/port_config.h). A failed kPortLidLmcArmed write is likewise left to its caller;
/// one answered without the LID is a problem here.
WriteReport write_plan(SmpBatch& batch, const std::vector<TableWrite>& plan, WriteRecorder& recorder,
                       std::vector<SweepProblem>& problems);

}  // namespace smd
