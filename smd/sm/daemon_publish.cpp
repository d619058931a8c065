// The frozen FabricSnapshot the control socket and metrics read without a lock (smd/state/fabric_snapshot.h),
// and the counters a heavy sweep adds to. Both run between sweeps only.
#include "smd/sm/daemon.h"

namespace smd {

std::shared_ptr<const FabricSnapshot> Daemon::snapshot() const {
  // Only a running PerfMgr's counters: a standby's (or a disabled one's) last view would be stale.
  const bool perf = health_.perf().running();
  // `smctl log-level` applies at once, even while a sweep runs and nothing is published.
  const bool level = snapshot_ && snapshot_->log_level != runtime_.log_level();
  if ((!sa_ && !perf && !level) || !snapshot_) return snapshot_;
  auto snap = std::make_shared<FabricSnapshot>(*snapshot_);
  snap->log_level = runtime_.log_level();
  if (sa_) snap->sa = std::make_shared<const SaStats>(sa_->stats());
  if (perf) snap->perf = health_.perf().view();  // counter passes end between sweeps: the newest one
  return snap;
}

void Daemon::count_sweep(const SweepSummary& s) {
  ++counters_.heavy_sweeps;
  if (s.incremental) ++counters_.incremental_sweeps;
  if (!s.full_discovery_because.empty()) ++counters_.incremental_fallbacks;
  counters_.smps_sent += s.smps_sent;
  counters_.smp_retries += s.retries;
  counters_.smp_timeouts += s.timeouts;
  counters_.lft_blocks_written += s.lft_blocks_written;
  counters_.pkey_blocks_written += s.pkey_blocks_written;
  counters_.sl2vl_tables_written += s.sl2vl_tables_written;
  counters_.vlarb_blocks_written += s.vlarb_blocks_written;
  counters_.mft_blocks_written += s.mft_blocks_written;
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
  snap->instance = policy_.instance.name;
  snap->log_level = runtime_.log_level();
  snap->sweeps_off = runtime_.sweeps_off_view();
  snap->subnet_prefix = policy_.sm.subnet_prefix;
  snap->sm_lid = own_lid_;
  const bool master = state_ == mad::SmState::kMaster;
  snap->master_port_guid = master ? own_guid_ : watched_.guid;
  snap->master_lid = master ? own_lid_ : watched_.lid;
  snap->masters_seen = known_.other_masters() + (master ? 1 : 0);
  snap->awaiting_handover_from = awaiting_handover_ ? watched_.guid : 0;
  for (const WatchedSm& sm : known_.list()) {
    snap->other_sms.push_back({sm.guid, sm.info.priority, mad::to_string(sm.info.state), sm.lid});
  }
  if (runner_ && runner_->topology()) {
    snap->topo = runner_->topology();
    snap->lids = runner_->lids_snapshot();
    snap->tables = runner_->tables_snapshot();
    snap->partitions = runner_->partitions_snapshot();
    snap->sl2vl = runner_->sl2vl_snapshot();
    sa_publisher_.fill_fabric_views(*snap, sa_input(), summary != nullptr);
  }
  snap->partition_policy = sa_publisher_.partition_policy();
  snap->groups =
      runner_ ? mcast_.view(&runner_->mcast_tables(), runner_->mcast_rebuild_pending()) : mcast_.view(nullptr, false);
  snap->last_sweep = last_summary_;
  snap->last_sweep_time = last_sweep_time_;
  snap->last_repair_ms = sweeps_.last_repair_ms();
  snap->counters = counters_;
  snap->policy_generation = reloads_.generation();
  snap->policy_source = policy_.source;
  snap->names = NodeNames(policy_.node_names);
  snap->needs_restart = reloads_.needs_restart();
  snap->reload_refused = reloads_.refused();
  snap->reload_refused_since = reloads_.refused_since();
  snap->reloads_refused_total = reloads_.refused_total();
  if (metrics_ && metrics_->port() != 0) snap->metrics_address = metrics_->address();
  snap->unhealthy = health_.view();
  snap->unhealthy_marks_total = health_.unhealthy_marks_total();
  snap->babbling_ports_total = health_.babbling_ports_total();
  snap->babbling_links_disabled = health_.links_disabled();
  if (policy_.roce.export_plan) snap->roce_plan_path = policy_.sm.state_dir + "/" + kRocePlanFile;
  snapshot_ = std::move(snap);
  publish_sa();
}

sa::SaPublishInput Daemon::sa_input() const {
  sa::SaPublishInput in;
  in.policy = &policy_;
  in.policy_generation = reloads_.generation();
  in.master = state_ == mad::SmState::kMaster;
  in.subnet_up = last_summary_.subnet_up;
  in.problems = &last_summary_.problems;
  in.sm_lid = own_lid_;
  in.sm_guid = own_guid_;
  in.sms.push_back({own_lid_, own_guid_, policy_.sm.sm_key, act_count_, static_cast<std::uint8_t>(policy_.sm.priority),
                    static_cast<std::uint8_t>(state_)});
  for (const WatchedSm& sm : known_.list()) {
    in.sms.push_back({sm.lid, sm.guid, sm.info.sm_key, sm.info.act_count, sm.info.priority,
                      static_cast<std::uint8_t>(sm.info.state)});
  }
  if (!runner_) return in;
  in.topo = runner_->topology();
  in.known = &runner_->known_fabric();
  in.lids = runner_->lids_snapshot();
  in.tables = runner_->tables_snapshot();
  in.partitions = runner_->partitions_snapshot();
  in.mcast = &runner_->mcast_tables();
  in.mcast_generation = runner_->mcast_tables_generation();
  return in;
}

void Daemon::publish_sa() {
  if (!sa_ || !runner_) return;
  sa_->publish(sa_publisher_.publish(sa_input()));
}

}  // namespace smd
