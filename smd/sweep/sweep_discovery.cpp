// Phase 1 of a heavy sweep: what the SMAs report, read in full, resumed, or re-read where traps said
// the fabric changed.
#include <spdlog/spdlog.h>

#include "smd/sweep/discovery.h"
#include "smd/sweep/incremental_discovery.h"
#include "smd/sweep/phase_timer.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

ObservedFabric SweepRunner::discover(SmpBatch& batch, SweepScope scope, const std::vector<Lid>& changed_lids,
                                     SweepSummary& s) {
  s.resumed = scope == SweepScope::kFailed && last_.topo && last_.topo->size() > 0;
  PhaseTimer t(s, SweepPhase::kDiscovery,
               s.resumed                       ? "re-sweep: unread attributes asked again"
               : scope == SweepScope::kChanged ? "heavy sweep: changed switches re-read"
                                               : "heavy sweep: fabric discovered");
  ObservedFabric d;
  if (s.resumed) {
    s.gaps = discovery_gaps(last_);
    d = resume_discovery(batch, last_);
  } else if (scope == SweepScope::kChanged) {
    d = rediscover(batch, changed_lids, s);
  } else {
    d = discover_fabric(batch, &last_);  // the last sweep says which ports take extended speeds' bit 31
  }
  // Lost SMPs leave holes; fill them before anything is configured, so that a lost answer does not
  // become a node or a cable the routes leave out (and the next sweep puts back).
  for (unsigned round = 1; round <= policy_.sm.max_resweeps; ++round) {
    const std::size_t gaps = discovery_gaps(d);
    if (gaps == 0) break;
    spdlog::info("sweep: discovery round {}: asking again for {} unread attributes", round + 1, gaps);
    d = resume_discovery(batch, d);
    ++s.discovery_rounds;
  }
  return d;
}

ObservedFabric SweepRunner::rediscover(SmpBatch& batch, const std::vector<Lid>& changed_lids, SweepSummary& s) {
  // Trap issuers by LID, as the last sweep's records hold them (switch port 0, CA ports).
  std::vector<Guid> changed;
  std::string unknown;
  if (last_.topo) {
    for (Lid lid : changed_lids) {
      Guid found = 0;
      for (NodeIndex n = 0; n < last_.topo->size() && found == 0; ++n) {
        const Node& node = last_.topo->node(n);
        for (PortNum p = 0; p <= node.num_ports && found == 0; ++p) {
          const mad::PortInfo* pi = last_.port_info(n, p);
          if ((node.is_switch() && p != 0) || pi == nullptr) continue;
          if (pi->lid == lid && lid != 0) found = node.guid;
        }
      }
      if (found == 0) unknown = "a trap came from LID " + std::to_string(lid) + ", which no known port holds";
      changed.push_back(found);
    }
  }
  IncrementalDiscovery inc;
  if (!last_.topo) {
    inc.status = make_error(ErrorCode::kDeclined, "no previous sweep to start from");
  } else if (!unknown.empty()) {
    inc.status = make_error(ErrorCode::kDeclined, unknown);
  } else {
    inc = rediscover_changed(batch, last_, changed, NodeNames(policy_.node_names));
  }
  if (inc.ok()) {
    s.incremental = true;
    spdlog::info("sweep: incremental: {} switches re-read, {} cables lost, {} gained, {} nodes left",
                 inc.switches_reread, inc.cables_lost, inc.cables_gained, inc.nodes_lost);
    return std::move(inc.fabric);
  }
  s.full_discovery_because = inc.full_sweep_because();
  spdlog::info("sweep: full discovery instead of an incremental one: {}", s.full_discovery_because);
  return discover_fabric(batch, &last_);
}

}  // namespace smd
