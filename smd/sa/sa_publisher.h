// SaPublisher: what the SM hands the SA thread, and when the SA answers at all.
//
// The SM calls publish() on its own thread after every sweep and state change; the result is a frozen
// SaSnapshot (sa_snapshot.h) for SaAgent::publish. The costly parts are derived views of the last fabric
// (the SA's index, its MFT view, the QoS levels, and for smctl the SM-owned port fields, the links and a
// copy of the programmed trees); each is rebuilt only when what it derives from changes, so a publish
// between sweeps costs a few pointer copies.
//
// The serving rule (IBA C15-0.1.3, decided in serving_after() and nowhere else): the SA answers only on a
// MASTER whose sweep brought the subnet up (or left only P_Key tables too small for the policy, which are
// programmed with what fits and answered from). Once serving, later sweeps that repair something do not
// stop it; leaving MASTER does.
//
// This header knows no transport and no sweep: the SM fills SaPublishInput from its SweepRunner.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "config/policy.h"
#include "routing/mcast/mcast_tables.h"
#include "smd/fabric/observed.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/sa/sa_snapshot.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::sa {

/// What one publish reads, borrowed for the call. Pointers are null before the first sweep.
struct SaPublishInput {
  // The SweepRunner's last fabric.
  std::shared_ptr<const Topology> topo;   ///< its topology (the identity of "a new fabric")
  const ObservedFabric* known = nullptr;  ///< the discovery it came from (may be an older one's)
  std::shared_ptr<const LidMap> lids;     ///< the programmed LIDs
  std::shared_ptr<const RoutingTables> tables;
  std::shared_ptr<const PartitionPlan> partitions;
  const McastTables* mcast = nullptr;  ///< the programmed multicast trees
  std::uint64_t mcast_generation = 0;  ///< McastTables' change counter (SweepRunner)
  // The SM.
  bool master = false;                                  ///< SMInfo:SMState is MASTER now
  bool subnet_up = false;                               ///< the last heavy sweep brought the subnet up
  const std::vector<SweepProblem>* problems = nullptr;  ///< that sweep's problems (null: none)
  Lid sm_lid = 0;
  Guid sm_guid = 0;
  std::vector<SmEntry> sms;             ///< this SM first, then the others it knows (SMInfoRecord)
  const Policy* policy = nullptr;       ///< the policy in effect (required)
  std::uint64_t policy_generation = 0;  ///< bumped whenever a policy takes effect
};

/// The serving rule: whether the SA serves after this publish, given whether it served before.
/// `master`: SMState MASTER; `subnet_up` and `problems`: the last heavy sweep's outcome.
bool serving_after(bool served, bool master, bool subnet_up, const std::vector<SweepProblem>& problems);

class SaPublisher {
 public:
  /// The partition policy the SA pre-creates groups from (start-up and every policy that takes effect):
  /// a new pointer each call, which the SA reads as "re-apply".
  void set_partition_policy(const PartitionsSpec& spec);
  std::shared_ptr<const PartitionsSpec> partition_policy() const { return partitions_; }

  /// Another SM was seen MASTER (election, light sweep): the next snapshot that serves says so once, so
  /// the SA knows its groups and services may be older than that master's subnet (state_file_origin.h).
  void note_other_master() { other_master_since_served_ = true; }

  /// The snapshot for SaAgent::publish. Updates the serving state (serving_after) and the cached views.
  std::shared_ptr<SaSnapshot> publish(const SaPublishInput& in);

  /// The fabric views smctl reads, filled into `snap`: port fields and links (rebuilt when `new_sweep` or
  /// never built; null when `in.known` is not the discovery of `in.topo`) and the programmed trees (copied
  /// when their generation moved). Nothing is filled before the first fabric.
  void fill_fabric_views(FabricSnapshot& snap, const SaPublishInput& in, bool new_sweep);

  /// The SA answers now (as of the last publish).
  bool serving() const { return ready_ && fabric_ != nullptr; }

 private:
  void refresh_fabric(const SaPublishInput& in);
  void refresh_qos(const SaPublishInput& in);
  void refresh_mfts(const SaPublishInput& in);

  std::shared_ptr<const SaFabric> fabric_;             ///< the SA's index of the last fabric
  const Topology* fabric_of_ = nullptr;                ///< the topology fabric_ was built from
  std::shared_ptr<const SaMfts> mfts_;                 ///< the SA's view of the programmed MFTs ...
  std::uint64_t mfts_generation_ = 0;                  ///< ... as of this McastTables generation
  std::shared_ptr<const PortFieldsView> port_fields_;  ///< the SM-owned port fields (smctl nodes)
  std::shared_ptr<const PortLinkView> port_links_;     ///< made as port_fields_ is
  std::shared_ptr<const McastTables> mcast_copy_;      ///< the snapshot's copy of the programmed trees ...
  std::uint64_t mcast_copy_generation_ = 0;            ///< ... as of this generation
  bool ready_ = false;                                 ///< the serving rule's state
  bool other_master_since_served_ = false;             ///< another SM was MASTER since the SA last started serving
  /// The QoS levels (null: qos off), rebuilt when the topology, the partition plan or the policy changes.
  std::shared_ptr<const QosLevelMatcher> qos_;
  std::shared_ptr<const Topology> qos_topo_;  // held, so a new fabric at a reused address still counts
  std::shared_ptr<const PartitionPlan> qos_plan_;
  std::uint64_t qos_generation_ = 0;
  std::shared_ptr<const PartitionsSpec> partitions_;
};

}  // namespace smd::sa
