// The frozen FabricSnapshot the control socket and metrics read without a lock (smd/state/fabric_snapshot.h),
// and the counters a heavy sweep adds to. Both run between sweeps only.
#include <algorithm>

#include "smd/sm/daemon.h"

namespace smd {
namespace {

/// Whether the only problems of a sweep are P_Key tables too small for the policy's partitions. The fabric
/// is then programmed with what fits (the index-0 key first) and the SA answers from those same tables:
/// holding PathRecords and joins back from every host would not give the left-out ports their partitions.
bool only_pkey_table_capacity(const std::vector<SweepProblem>& problems) {
  return !problems.empty() && std::all_of(problems.begin(), problems.end(), [](const SweepProblem& p) {
    return p.code == ProblemCode::kCapacity && p.attribute.starts_with("P_KeyTable");
  });
}

}  // namespace

std::shared_ptr<const FabricSnapshot> Daemon::snapshot() const {
  // Only a running PerfMgr's counters: a standby's (or a disabled one's) last view would be stale.
  const bool perf = perf_ && perf_->running();
  // `smctl log-level` applies at once, even while a sweep runs and nothing is published.
  const bool level = snapshot_ && snapshot_->log_level != runtime_.log_level();
  if ((!sa_ && !perf && !level) || !snapshot_) return snapshot_;
  auto snap = std::make_shared<FabricSnapshot>(*snapshot_);
  snap->log_level = runtime_.log_level();
  if (sa_) snap->sa = std::make_shared<const SaStats>(sa_->stats());
  if (perf) snap->perf = perf_->view();  // counter passes end between sweeps: the newest one
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
    // Only a fabric of the same discovery: its node indexes are the snapshot topology's.
    const ObservedFabric& known = runner_->known_fabric();
    if (summary != nullptr || !port_fields_) {
      port_fields_ = known.topo == runner_->topology()
                         ? std::make_shared<const PortFieldsView>(make_port_fields_view(known))
                         : nullptr;
    }
    snap->port_fields = port_fields_;
    if (summary != nullptr || !port_links_) {
      port_links_ = known.topo == runner_->topology()
                        ? std::make_shared<const PortLinkView>(make_port_link_view(known))
                        : nullptr;
    }
    snap->port_links = port_links_;
    snap->sl2vl = runner_->sl2vl_snapshot();
    // Copied only when the programmed trees changed: a publish between passes shares the last copy.
    if (!mcast_tables_copy_ || runner_->mcast_tables_generation() != mcast_tables_copy_generation_) {
      mcast_tables_copy_ = std::make_shared<const McastTables>(runner_->mcast_tables());
      mcast_tables_copy_generation_ = runner_->mcast_tables_generation();
    }
    snap->mcast_tables = mcast_tables_copy_;
  }
  snap->partition_policy = sa_partitions_;
  snap->groups = mcast_groups_view();
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
  snap->unhealthy = unhealthy_view();
  snap->unhealthy_marks_total = unhealthy_marks_total_;
  snap->babbling_ports_total = babbling_ports_total_;
  snap->babbling_links_disabled = disabled_ends_.size();
  if (policy_.roce.export_plan) snap->roce_plan_path = policy_.sm.state_dir + "/" + kRocePlanFile;
  snapshot_ = std::move(snap);
  publish_sa();
}

// The SA's snapshot: the fabric index is rebuilt only when a configuring sweep left a new fabric; the SM's
// state and the policy's values are fresh every time.
void Daemon::publish_sa() {
  if (!sa_ || !runner_) return;
  const std::shared_ptr<const Topology> topo = runner_->topology();
  if (topo && topo.get() != sa_fabric_of_) {
    sa_fabric_ = sa::SaFabric::build(runner_->known_fabric(), runner_->lids_snapshot(), runner_->tables_snapshot(),
                                     policy_.sm.subnet_prefix, runner_->partitions_snapshot());
    sa_fabric_of_ = topo.get();
  }
  // QoS levels resolve port groups to ports once per (fabric, partition plan, policy), not per query.
  const std::shared_ptr<const PartitionPlan> plan = runner_->partitions_snapshot();
  if (!policy_.qos.enabled || !topo) {
    sa_qos_.reset();
    sa_qos_topo_.reset();
    sa_qos_plan_.reset();
  } else if (topo != sa_qos_topo_ || plan != sa_qos_plan_ || reloads_.generation() != sa_qos_generation_) {
    sa_qos_ = std::make_shared<const QosLevelMatcher>(policy_.qos, *topo, policy_.partitions, plan.get(), own_guid_);
    sa_qos_topo_ = topo;
    sa_qos_plan_ = plan;
    sa_qos_generation_ = reloads_.generation();
  }
  auto snap = std::make_shared<sa::SaSnapshot>();
  const bool master = state_ == mad::SmState::kMaster;
  // IBA C15-0.1.3: only a master answers, and only once a sweep has programmed the fabric it describes.
  if (!master) {
    sa_ready_ = false;
  } else if (last_summary_.subnet_up || only_pkey_table_capacity(last_summary_.problems)) {
    sa_ready_ = true;  // later sweeps that repair something do not stop the SA
  }
  snap->serving = sa_ready_ && sa_fabric_ != nullptr;
  // Read by the SA when serving starts; the first serving snapshot carries it, later ones start afresh.
  snap->other_master_seen = known_.other_master_since_served();
  if (snap->serving) known_.served();
  snap->fabric = sa_fabric_;
  if (sa_fabric_ && sa_fabric_->tables().layering) {
    // A VL-layered engine's SL is part of its deadlock freedom: PathRecord must hand out exactly it.
    snap->path_sl = [fabric = sa_fabric_](Lid slid, Lid dlid) { return fabric->engine_sl(slid, dlid); };
  }
  snap->partitions = sa_partitions_;
  snap->qos = sa_qos_;
  // MulticastForwardingTableRecord: rebuilt only when the programmed trees changed.
  if (!sa_mfts_ || runner_->mcast_tables_generation() != sa_mfts_generation_) {
    auto mfts = std::make_shared<sa::SaMfts>();
    mfts->highest_mlid = runner_->mcast_tables().highest_mlid;
    mfts->by_switch = mft_by_switch(runner_->mcast_tables());
    sa_mfts_ = std::move(mfts);
    sa_mfts_generation_ = runner_->mcast_tables_generation();
  }
  snap->mfts = sa_mfts_;
  snap->sm_lid = own_lid_;
  snap->settings.key = policy_.sa.key;
  snap->settings.packet_lifetime = static_cast<std::uint8_t>(policy_.sa.packet_lifetime);
  snap->settings.max_records = policy_.sa.max_records;
  snap->settings.consolidate_ipv6_snm = policy_.multicast.consolidate_ipv6_snm;
  snap->settings.original_rates_only = policy_.sa.original_rates_only;
  snap->settings.multicast = policy_.sm.multicast;
  snap->settings.drop_absent_subscribers = policy_.sa.drop_absent_subscribers;
  snap->settings.resp_time_value = sa::resp_time_value_for_ms(policy_.mad.timeout_ms);
  snap->sms.push_back({own_lid_, own_guid_, policy_.sm.sm_key, act_count_,
                       static_cast<std::uint8_t>(policy_.sm.priority), static_cast<std::uint8_t>(state_)});
  for (const WatchedSm& sm : known_.list()) {
    snap->sms.push_back({sm.lid, sm.guid, sm.info.sm_key, sm.info.act_count, sm.info.priority,
                         static_cast<std::uint8_t>(sm.info.state)});
  }
  sa_->publish(std::move(snap));
}

}  // namespace smd
