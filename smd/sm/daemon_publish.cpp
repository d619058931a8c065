// The frozen FabricSnapshot the control socket and metrics read without a lock (smd/state/fabric_snapshot.h),
// and the counters a heavy sweep adds to. Both run between sweeps only.
#include "smd/sm/daemon.h"

namespace smd {

void Daemon::count_sweep(const SweepSummary& s) {
  ++counters_.heavy_sweeps;
  if (s.incremental) ++counters_.incremental_sweeps;
  if (!s.full_discovery_because.empty()) ++counters_.incremental_fallbacks;
  counters_.smps_sent += s.smps_sent;
  counters_.smp_retries += s.retries;
  counters_.smp_timeouts += s.timeouts;
  counters_.lft_blocks_written += s.lft_blocks_written;
  counters_.heavy_sweep_seconds_total += s.total_ms / 1000.0;
  for (const PhaseTime& p : s.phases) {
    if (p.id == SweepPhase::kRouting) counters_.routing_seconds_total += p.ms / 1000.0;
  }
}

void Daemon::publish(const SweepSummary* summary) {
  auto snap = std::make_shared<FabricSnapshot>();
  if (summary) {
    last_summary_ = *summary;
    last_sweep_time_ = std::chrono::system_clock::now();
  }
  snap->sm_state = mad::to_string(state_);
  snap->priority = policy_.sm.priority;
  snap->sm_port_guid = own_guid_;
  snap->sm_lid = own_lid_;
  const bool master = state_ == mad::SmState::kMaster;
  snap->master_port_guid = master ? own_guid_ : watched_.guid;
  snap->master_lid = master ? own_lid_ : watched_.lid;
  snap->masters_seen = other_masters_ + (master ? 1 : 0);
  snap->awaiting_handover_from = awaiting_handover_ ? watched_.guid : 0;
  for (const WatchedSm& sm : known_sms_) {
    snap->other_sms.push_back({sm.guid, sm.info.priority, mad::to_string(sm.info.state), sm.lid});
  }
  if (runner_ && runner_->topology()) {
    snap->topo = runner_->topology();
    snap->lids = runner_->lids_snapshot();
    snap->tables = runner_->tables_snapshot();
  }
  snap->last_sweep = last_summary_;
  snap->last_sweep_time = last_sweep_time_;
  snap->last_repair_ms = last_repair_ms_;
  snap->counters = counters_;
  snap->policy_generation = policy_generation_;
  snap->policy_source = policy_.source;
  snap->needs_restart = needs_restart_;
  if (policy_.roce.export_plan) snap->roce_plan_path = policy_.sm.state_dir + "/" + kRocePlanFile;
  snapshot_ = std::move(snap);
}

}  // namespace smd
