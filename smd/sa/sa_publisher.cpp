#include "smd/sa/sa_publisher.h"

#include <algorithm>

namespace smd::sa {
namespace {

/// Whether the only problems of a sweep are P_Key tables too small for the policy's partitions. The fabric
/// is then programmed with what fits (the index-0 key first) and the SA answers from those same tables:
/// holding PathRecords and joins back from every host would not give the left-out ports their partitions.
bool only_pkey_table_capacity(const std::vector<SweepProblem>& problems) {
  return !problems.empty() && std::all_of(problems.begin(), problems.end(), [](const SweepProblem& p) {
    return p.code == ProblemCode::kCapacity && p.attribute.starts_with("P_KeyTable");
  });
}

SaSettings settings_of(const Policy& p) {
  SaSettings s;
  s.key = p.sa.key;
  s.packet_lifetime = static_cast<std::uint8_t>(p.sa.packet_lifetime);
  s.max_records = p.sa.max_records;
  s.consolidate_ipv6_snm = p.multicast.consolidate_ipv6_snm;
  s.original_rates_only = p.sa.original_rates_only;
  s.multicast = p.sm.multicast;
  s.drop_absent_subscribers = p.sa.drop_absent_subscribers;
  s.resp_time_value = resp_time_value_for_ms(p.mad.timeout_ms);
  return s;
}

}  // namespace

bool serving_after(bool served, bool master, bool subnet_up, const std::vector<SweepProblem>& problems) {
  if (!master) return false;
  return served || subnet_up || only_pkey_table_capacity(problems);
}

void SaPublisher::set_partition_policy(const PartitionsSpec& spec) {
  partitions_ = std::make_shared<const PartitionsSpec>(spec);
}

// The SA's index is rebuilt only when a sweep left a new fabric.
void SaPublisher::refresh_fabric(const SaPublishInput& in) {
  if (!in.topo || in.topo.get() == fabric_of_ || in.known == nullptr) return;
  fabric_ = SaFabric::build(*in.known, in.lids, in.tables, in.policy->sm.subnet_prefix, in.partitions);
  fabric_of_ = in.topo.get();
}

// QoS levels resolve port groups to ports once per (fabric, partition plan, policy), not per query.
void SaPublisher::refresh_qos(const SaPublishInput& in) {
  if (!in.policy->qos.enabled || !in.topo) {
    qos_.reset();
    qos_topo_.reset();
    qos_plan_.reset();
    return;
  }
  if (in.topo == qos_topo_ && in.partitions == qos_plan_ && in.policy_generation == qos_generation_) return;
  qos_ = std::make_shared<const QosLevelMatcher>(in.policy->qos, *in.topo, in.policy->partitions, in.partitions.get(),
                                                 in.sm_guid);
  qos_topo_ = in.topo;
  qos_plan_ = in.partitions;
  qos_generation_ = in.policy_generation;
}

// MulticastForwardingTableRecord's view: rebuilt only when the programmed trees changed.
void SaPublisher::refresh_mfts(const SaPublishInput& in) {
  if (in.mcast == nullptr || (mfts_ && in.mcast_generation == mfts_generation_)) return;
  auto mfts = std::make_shared<SaMfts>();
  mfts->highest_mlid = in.mcast->highest_mlid;
  mfts->by_switch = mft_by_switch(*in.mcast);
  mfts_ = std::move(mfts);
  mfts_generation_ = in.mcast_generation;
}

std::shared_ptr<SaSnapshot> SaPublisher::publish(const SaPublishInput& in) {
  refresh_fabric(in);
  refresh_qos(in);
  refresh_mfts(in);
  static const std::vector<SweepProblem> kNone;
  ready_ = serving_after(ready_, in.master, in.subnet_up, in.problems ? *in.problems : kNone);
  auto snap = std::make_shared<SaSnapshot>();
  snap->serving = serving();
  // Read by the SA when serving starts; the first serving snapshot carries it, later ones start afresh.
  snap->other_master_seen = other_master_since_served_;
  if (snap->serving) other_master_since_served_ = false;
  snap->fabric = fabric_;
  if (fabric_ && fabric_->tables().layering) {
    // A VL-layered engine's SL is part of its deadlock freedom: PathRecord must hand out exactly it.
    snap->path_sl = [fabric = fabric_](Lid slid, Lid dlid) { return fabric->engine_sl(slid, dlid); };
  }
  snap->partitions = partitions_;
  snap->qos = qos_;
  snap->mfts = mfts_;
  snap->sm_lid = in.sm_lid;
  snap->settings = settings_of(*in.policy);
  snap->sms = in.sms;
  return snap;
}

void SaPublisher::fill_fabric_views(FabricSnapshot& snap, const SaPublishInput& in, bool new_sweep) {
  if (!in.topo || in.known == nullptr) return;
  // Only a fabric of the same discovery: its node indexes are the snapshot topology's.
  const bool same = in.known->topo == in.topo;
  if (new_sweep || !port_fields_) {
    port_fields_ = same ? std::make_shared<const PortFieldsView>(make_port_fields_view(*in.known)) : nullptr;
  }
  if (new_sweep || !port_links_) {
    port_links_ = same ? std::make_shared<const PortLinkView>(make_port_link_view(*in.known)) : nullptr;
  }
  snap.port_fields = port_fields_;
  snap.port_links = port_links_;
  // Copied only when the programmed trees changed: a publish between passes shares the last copy.
  if (in.mcast != nullptr && (!mcast_copy_ || in.mcast_generation != mcast_copy_generation_)) {
    mcast_copy_ = std::make_shared<const McastTables>(*in.mcast);
    mcast_copy_generation_ = in.mcast_generation;
  }
  snap.mcast_tables = mcast_copy_;
}

}  // namespace smd::sa
