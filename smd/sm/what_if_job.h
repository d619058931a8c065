// The daemon's `smctl what-if drain`: the same what-if as `smd plan --drain` (routing/whatif/drain_plan.h),
// on what the daemon has programmed instead of a netfile, and the same report (smd/report). Pure: it reads
// frozen snapshots and a copy of the policy's routing and partitions, so it runs on a worker thread
// (what_if_worker.h) while the SM's thread sweeps and the SA's thread answers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "config/policy.h"
#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "smd/protocol/control_protocol.h"

namespace smd {

/// What one what-if reads: the topology the programmed tables were routed on (drained and isolated
/// cables already gone: SweepRunner::routed_topology_snapshot), its LIDs and tables, and the policy parts.
struct WhatIfInput {
  std::shared_ptr<const Topology> topo;
  /// The same sweep's whole fabric (SweepRunner::topology: drained cables still cabled). Names resolve on it,
  /// as `smd plan --drain` resolves on the whole netfile: a drained switch's cable is still a cable there,
  /// where it has none on `topo`. Null: names resolve on `topo`.
  std::shared_ptr<const Topology> fabric;
  std::shared_ptr<const LidMap> lids;
  std::shared_ptr<const RoutingTables> tables;
  std::vector<std::string> parts;  ///< as typed (routing/whatif/drain_target.h)
  RoutingPolicy routing;           ///< chain, engine options, repair mode
  PartitionsSpec partitions;
  unsigned seeds = 20;         ///< random permutations of the quality report (as `smd plan --seeds`)
  unsigned max_shifts = 2048;  ///< shift patterns at most (as `smd plan --max-shifts`)
};

/// {report: drain_report_json (keys as `smd plan --drain --format json`), text: the text report, safe (no
/// CA pair would lose every path; smctl exits 5 when false), lost_pairs, cut_off, what_if_ms}. Errors: kDeclined
/// for a missing snapshot; kInvalidInput for a name that does not resolve (the resolver's message) or parts
/// named twice or inside one another (distinct_drain_parts); what_if_drain's own.
Result<control::Json> run_what_if_drain(const WhatIfInput& in);

}  // namespace smd
