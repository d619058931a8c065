// The frozen FabricSnapshot the control socket and metrics read without a lock (smd/state/fabric_snapshot.h),
// and the counters a heavy sweep adds to. Both run between sweeps only.
#include "smd/sm/daemon.h"

namespace smd {

std::shared_ptr<const FabricSnapshot> Daemon::snapshot() const {
  // Only a running PerfMgr's counters: a standby's (or a disabled one's) last view would be stale.
  const bool perf = health_.perf().running();
  // `smctl log-level` applies at once, even while a sweep runs and nothing is published.
  const std::shared_ptr<const FabricSnapshot>& last = record_.snapshot();
  const bool level = last && last->log_level != runtime_.log_level();
  if ((!sa_ && !perf && !level) || !last) return last;
  auto snap = std::make_shared<FabricSnapshot>(*last);
  snap->log_level = runtime_.log_level();
  if (sa_) snap->sa = std::make_shared<const SaStats>(sa_->stats());
  if (perf) snap->perf = health_.perf().view();  // counter passes end between sweeps: the newest one
  return snap;
}

void Daemon::publish(const SweepSummary* summary) {
  auto snap = std::make_shared<FabricSnapshot>();
  if (summary) {
    record_.note_last_sweep(*summary, std::chrono::system_clock::now(), !summary->stopped_after_discovery);
  }
  snap->sm_state = mad::to_string(local_.state);
  snap->priority = policy_.sm.priority;
  snap->sm_port_guid = local_.guid;
  snap->instance = policy_.instance.name;
  snap->log_level = runtime_.log_level();
  snap->sweeps_off = runtime_.sweeps_off_view();
  snap->subnet_prefix = policy_.sm.subnet_prefix;
  snap->sm_lid = local_.lid;
  const bool master = local_.state == mad::SmState::kMaster;
  snap->master_port_guid = master ? local_.guid : election_.watched().guid;
  snap->master_lid = master ? local_.lid : election_.watched().lid;
  snap->masters_seen = election_.known().other_masters() + (master ? 1 : 0);
  snap->awaiting_handover_from = election_.awaiting_handover() ? election_.watched().guid : 0;
  for (const WatchedSm& sm : election_.known().list()) {
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
  snap->last_sweep = record_.last_sweep();
  snap->last_sweep_time = record_.last_sweep_time();
  snap->last_repair_ms = sweeps_.last_repair_ms();
  snap->history.assign(record_.history().begin(), record_.history().end());
  snap->counters = record_.counters();
  snap->policy_generation = reloads_.generation();
  snap->policy_source = policy_.source;
  snap->names = NodeNames(policy_.node_names);
  snap->needs_restart = reloads_.needs_restart();
  snap->reload_refused = reloads_.refused();
  snap->reload_refused_since = reloads_.refused_since();
  snap->reloads_refused_total = reloads_.refused_total();
  snap->metrics_address = endpoints_.metrics_address();
  snap->unhealthy = health_.view();
  snap->unhealthy_marks_total = health_.unhealthy_marks_total();
  snap->babbling_ports_total = health_.babbling_ports_total();
  snap->babbling_links_disabled = health_.links_disabled();
  const Topology* drain_topo = runner_ ? runner_->topology().get() : nullptr;
  for (const DrainRecord& r : drains_.records()) snap->drained.push_back({r.part, describe_drain(drain_topo, r), r.forced});
  snap->drained_cables = runner_ ? runner_->drained_cables() : 0;
  if (policy_.roce.export_plan) snap->roce_plan_path = policy_.sm.state_dir + "/" + kRocePlanFile;
  record_.set_snapshot(std::move(snap));
  publish_sa();
}

sa::SaPublishInput Daemon::sa_input() const {
  sa::SaPublishInput in;
  in.policy = &policy_;
  in.policy_generation = reloads_.generation();
  in.master = local_.state == mad::SmState::kMaster;
  in.subnet_up = record_.last_sweep().subnet_up;
  in.problems = &record_.last_sweep().problems;
  in.sm_lid = local_.lid;
  in.sm_guid = local_.guid;
  in.sms.push_back(local_.sa_entry(policy_.sm.sm_key, policy_.sm.priority));
  for (const WatchedSm& sm : election_.known().list()) in.sms.push_back(sa_entry_of(sm.lid, sm.guid, sm.info));
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
