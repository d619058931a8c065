// The multicast phase: verify the trees (routing/mcast/mcast_verify.h), plan the MFT writes
// (mft_plan.h), send them through the one writer (table_writer.h), and record what each switch
// acknowledged (smd/fabric/applied_mft.h; the SwitchInfo a MulticastFDBTop Set returned also goes into
// the sweep's view). Tables that fail the verifier are never written, not even in part.
// Run it after program_switches(): its MulticastFDBTop Set is a read-modify-write of the SwitchInfo the
// sweep holds, LinearFDBTop included.
#pragma once

#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/mcast/mcast_tables.h"
#include "smd/fabric/applied_mft.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/switch_table_send.h"

namespace smd {

/// ProgramCounts of the MFT blocks (block, position) and MulticastFDBTop Sets, and the verifier's verdict.
struct McastProgramCounts : ProgramCounts {
  bool verified = false;  ///< the trees passed the verifier (else nothing was sent)
  unsigned groups = 0;    ///< MLIDs in the tables
};

/// Make every switch hold `want`, writing only the (block, position) pairs that differ from `applied`;
/// never at or above a switch's MulticastFDBCap. A verifier failure becomes one problem (kNoRoute,
/// naming the MLID, switch and port) and nothing is written; other failures become `problems` as the
/// writer reports them. A switch whose MFT was reset (stale) is forgotten in `applied` first.
/// `verified`: tables that already passed the verifier on this same fabric (the last pass's); only the
/// trees of `want` that differ from them are verified again (a join changes one tree, not all of them).
McastProgramCounts program_multicast(SmpBatch& batch, SweepFabric& fabric, const McastTables& want, AppliedMft& applied,
                                     std::vector<SweepProblem>& problems, const McastTables* verified = nullptr);

}  // namespace smd
