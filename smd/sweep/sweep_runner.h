// One heavy sweep as a list of named phases, in the order OpenSM logs them:
// discovery -> LIDs assigned -> routing computed and verified -> endports configured ->
// switches configured (LFTs) -> partitions configured (P_Key tables) -> QoS configured (SL2VL, VLArb; only with
// qos.enabled) -> multicast configured (MFTs) -> links armed ->
// links active -> subnet up. Each phase keeps to one kind of state: discovery builds what the SMAs reported
// (ObservedFabric), LIDs and routing build what the SM wants (DesiredFabric), the programmers write the difference and
// record what the SMAs acknowledged (SweepFabric for this sweep's PortInfo and SwitchInfo, AppliedState for every
// table and the SM-owned port fields; it outlives the sweep). The multicast groups and trees are the
// multicast manager's (mcast_manager.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/policy.h"
#include "mad/transport/m_key_transport.h"
#include "mad/transport/smp_batch.h"
#include "mad/transport/transport.h"
#include "routing/chain/registry.h"
#include "routing/chain/route_after_change.h"
#include "routing/lids/lid_assign.h"
#include "routing/mcast/mcast_tables.h"
#include "routing/mcast/mcast_tree.h"
#include "smd/fabric/applied_state.h"
#include "smd/fabric/desired.h"
#include "smd/fabric/mcast_groups.h"
#include "smd/fabric/observed.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/program/mcast_programmer.h"
#include "smd/state/kept_state_file.h"
#include "smd/state/port_counters_view.h"
#include "smd/state/roce_state_writer.h"
#include "smd/state/routing_state_files.h"
#include "smd/state/sweep_summary.h"
#include "smd/sweep/m_key_book.h"
#include "smd/sweep/mcast_manager.h"
#include "smd/sweep/sweep_scope.h"

// SweepRunner only holds the io_context by reference (SmpBatch runs it): a declaration is enough here.
namespace boost::asio {
class io_context;
}  // namespace boost::asio

namespace smd {

struct RepairStats;  // routing/verify/repair.h
struct HeavySweep;   // sweep_runner.cpp: one heavy sweep's working state

/// What one multicast pass between sweeps did (SweepRunner::multicast_pass).
struct McastPassSummary {
  bool skipped = false;  ///< nothing to do (no groups changed, sm.multicast false), or no configuring sweep yet
  unsigned rebuilt = 0;  ///< MLIDs whose tree was rebuilt or removed
  McastProgramCounts counts;
  std::uint64_t smps_sent = 0;
  double ms = 0;
  std::vector<SweepProblem> problems;
};

/// The SM's state that outlives one sweep: remembered LIDs, what each switch holds, the last fabric.
class SweepRunner {
 public:
  SweepRunner(boost::asio::io_context& io, mad::SmpTransport& transport, const Policy& policy);

  /// What the gate after discovery decides (the SM's election, smd/sm).
  enum class GateVerdict : std::uint8_t {
    kConfigure,  ///< go on: LIDs, routes, programming
    kStandBy,    ///< another SM is master: stop, and remember the LIDs found so a takeover keeps them
    kWait,       ///< another master still holds part of the subnet: stop, remember nothing, write nothing
  };
  /// Decides after discovery whether this SM goes on to configure the fabric; a stopped sweep ends with
  /// `SweepSummary::stopped_after_discovery`.
  using DiscoveryGate = std::function<GateVerdict(const ObservedFabric&)>;

  /// Run one heavy sweep through every phase. Problems do not abort the sweep: the rest of the fabric
  /// is still configured, and the summary names what failed. With SweepScope::kFailed, discovery starts
  /// from the last sweep's results and reads only what it could not (a full sweep when there is no
  /// usable last sweep); later phases write only what is still missing, as always. Either way, what
  /// discovery could not read is asked for again up to sm.max_resweeps times before LIDs and routes.
  /// With SweepScope::kChanged, `changed_lids` are the LIDs that sent traps (the switches, or CAs, whose
  /// ports changed): only what changed is read again, and whatever the last sweep's fabric cannot explain
  /// falls back to a full discovery (SweepSummary::full_discovery_because).
  SweepSummary heavy_sweep(const DiscoveryGate& gate = {}, SweepScope scope = SweepScope::kFull,
                           const std::vector<Lid>& changed_lids = {});

  /// Light sweep over the switches of the last heavy sweep; true (with a reason) when a heavy one is due.
  bool light_sweep_finds_change(std::string& reason);

  /// The last discovered fabric and its LIDs and tables (null / empty before the first sweep).
  std::shared_ptr<const Topology> topology() const { return topo_; }
  /// The last configuring sweep's fabric as known at its end (decoded records with what the sweep set;
  /// topo null before the first): what the SA answers from.
  const ObservedFabric& known_fabric() const { return last_; }
  const LidMap& lids() const;
  const RoutingTables& tables() const;
  /// The LIDs and tables of the last sweep that reached programming, frozen (null before the first).
  std::shared_ptr<const LidMap> lids_snapshot() const { return programmed_.lids; }
  std::shared_ptr<const RoutingTables> tables_snapshot() const { return programmed_.tables; }
  /// The partition plan (P_Key tables, enforcement, membership) of the last sweep that reached
  /// programming, frozen (null before the first): what the SA's partition checks and smctl read.
  std::shared_ptr<const PartitionPlan> partitions_snapshot() const { return programmed_.partitions; }
  /// The SL2VL tables the last programming sweep wrote (null: it wrote none).
  std::shared_ptr<const Sl2VlPlan> sl2vl_snapshot() const { return programmed_.sl2vl; }
  /// The SL2VL plan of the current (or last) sweep, built before its QoS writes (null when QoS is off):
  /// what an SL2VL verifier checks the routes' layers against.
  std::shared_ptr<const Sl2VlPlan> sl2vl_plan() const { return desired_.sl2vl; }

  /// Use a reloaded policy from the next sweep on (LIDs already granted stay); that sweep programs a
  /// fresh engine run rather than repairing the old tables.
  void set_policy(const Policy& policy);
  /// The next heavy sweep programs a fresh engine run (`smctl reroute`): re-balances after repairs.
  void request_full_reroute() { full_reroute_ = true; }
  /// Whether each sweep ends by proving the programmed tables for the next local repair (default on; a
  /// one-shot run has no next repair to save the time for).
  void set_route_proofs(bool on) { route_proofs_ = on; }
  /// When the RoCE plan of a sweep's cables is handed to its writer: right after routing, so that it is
  /// built and written while the sweep waits on SMP answers (`smd --once`: the process ends when both are
  /// done), or, the default, once the sweep has programmed the fabric, so that a bring-up or a repair is
  /// not slowed by it (at idle CPU priority its file writes and their write-back still took ~100 ms from
  /// a 1728-host bring-up on 2 cores). During the sweep the writer runs at normal priority: its caller waits
  /// for it anyway (RoceStateWriter::set_always_waited_for).
  void set_roce_during_sweep(bool on) {
    roce_during_sweep_ = on;
    roce_writer_.set_always_waited_for(on);
  }
  /// Another SM programs the fabric from now on (this SM stands by): forget what the switches were
  /// believed to hold and the last sweep's fabric, so the first sweep as master again discovers the whole
  /// fabric, writes every table and routes afresh (OpenSM: coming out of standby). LIDs remembered stay.
  void forget_programming();

  /// The SA's groups as of now (every MLID in use, with its members' port GUIDs). MLIDs whose members
  /// differ from the last call, new ones and vanished ones have their trees rebuilt (or removed) by the
  /// next multicast pass or heavy sweep; the others keep theirs.
  void set_mcast_groups(const std::vector<McastGroupGuids>& groups) { mcast_.set_groups(groups); }
  /// Between sweeps (OpenSM's idle-time processing of marked MLIDs): rebuild the trees of the groups that
  /// changed, on the last configuring sweep's fabric, verify them and write the MFT blocks that differ.
  /// Nothing is written when the verifier refuses the result (a problem says why).
  McastPassSummary multicast_pass();
  /// The trees the switches were last programmed with (empty before the first multicast phase).
  const McastTables& mcast_tables() const { return mcast_.tables(); }
  /// Changes whenever mcast_tables() does (a verified multicast pass, a reset): readers rebuild views then.
  std::uint64_t mcast_tables_generation() const { return mcast_.generation(); }
  /// Some group changed since the last multicast phase (its tree is not programmed yet).
  bool mcast_rebuild_pending() const { return mcast_.rebuild_pending(); }

  /// Ports whose cables the following heavy sweeps route around (health.isolate: the unhealthy ports), by
  /// (node GUID, port). Each sweep decides them again on its own fabric (routing/isolation: never cutting a
  /// node off); the link stays up and keeps its LIDs. A changed set makes the next sweep route afresh or repair.
  void set_isolation_requests(std::vector<PortKey> ports);
  const std::vector<PortKey>& isolation_requests() const { return isolation_.requests; }
  /// What the last routing phase decided for each request, in request order (empty when none).
  struct IsolationOutcome {
    PortKey port;
    PortKey peer;  ///< node GUID 0 when the port is not cabled (or not in the fabric)
    bool isolated = false;
    std::string reason;  ///< why it stays in
  };
  const std::vector<IsolationOutcome>& isolation() const { return isolation_.outcomes; }
  /// The operator's drains (`smctl drain`), by (node GUID, port; port 0 = a whole switch): their cables are
  /// gone from the topology the following heavy sweeps route on, before health isolation is decided
  /// (routing/isolation/routed_topology.h); links stay up, LIDs are kept. A part not in a sweep's fabric
  /// drains nothing in that sweep. A changed set makes the next sweep repair or route afresh.
  void set_drain_requests(std::vector<PortKey> parts);
  const std::vector<PortKey>& drain_requests() const { return isolation_.drains; }
  /// Cables the last routing phase took out for the drains.
  std::size_t drained_cables() const { return isolation_.drained_cables; }
  /// The topology the programmed tables were routed on (the fabric without its drained and isolated
  /// cables), null before the first sweep that programmed: what a what-if drain starts from.
  std::shared_ptr<const Topology> routed_topology_snapshot() const { return routed_topo_ ? routed_topo_ : topo_; }

  /// The M_Keys smd believes each port holds, and the cables that say which port a path reaches.
  const MKeyBook& m_keys() const { return m_keys_; }
  /// health.babbling_port: link ends to disable (PortPhysicalState Disabled) and to enable again, as
  /// (node GUID, port), at the end of every master sweep until set again (smd/program/port_disable.h).
  void set_phys_state_requests(std::vector<PortKey> disable, std::vector<PortKey> enable);
  /// What the last master sweep's requests did: the ports whose SMA answered Disabled / enabled.
  struct PhysStateOutcome {
    std::vector<PortKey> disabled;
    std::vector<PortKey> enabled;
  };
  const PhysStateOutcome& phys_state_outcome() const { return phys_state_.outcome; }

  /// Wait until the RoCE plan of the last routed sweep is in state_dir (policy roce.export / roce.frr);
  /// the report of that write, nullopt when none was asked for yet.
  std::optional<RoceWriteReport> wait_for_roce_files() { return roce_writer_.wait_idle(); }

 private:
  // Phase 1 (sweep_discovery.cpp): discovery by scope, then rounds for what lost SMPs left unread.
  ObservedFabric discover(SmpBatch& batch, SweepScope scope, const std::vector<Lid>& changed_lids, SweepSummary& s);
  /// A kChanged sweep's discovery: the incremental one, or a full one when it cannot be done.
  ObservedFabric rediscover(SmpBatch& batch, const std::vector<Lid>& changed_lids, SweepSummary& s);
  // Phase 2 (sweep_lids.cpp): LIDs from guid2lid, the ports, or the lowest free range.
  bool assign_lids_phase(const Topology& topo, SweepSummary& s, std::vector<SweepProblem>& problems);
  void remember_port_lids(const Topology& topo);
  // Write remembered_ to state_dir/guid2lid unless that is what this process last wrote there.
  void save_guid2lid();
  // state_dir/port-fields (sweep_port_fields.cpp): read once per process before the first write, written
  // after each configuring sweep whose answers changed it.
  void load_port_fields();
  void save_port_fields();
  // Phase 3 (sweep_routing.cpp): the tables to program, decided by route_after_change (routing/chain/
  // route_after_change.h: local repair, else the engine chain and the minimal repair against it); what
  // stays here is the daemon's part: its state, the log lines, the summary and the "+repair" name.
  bool routing_phase(const Topology& topo, SweepSummary& s, std::vector<SweepProblem>& problems);
  // When drains are applied and route_after_change `failed`: the same change routed by
  // kDrainFallbackEngine (routing/isolation/routed_topology.h) instead, said in the log and the summary's
  // declined list; `failed` again when that fails too.
  Result<RouteAfterChange> route_drained_fallback(const RouteChangeInput& in, const Error& failed,
                                                  SweepSummary& s) const;
  // The log lines of the steps route_after_change took (`routed` null when routing failed).
  void log_route_steps(const RouteSteps& steps, const RouteAfterChange* routed) const;
  // The topology the programmed tables were routed on (routed_topo_, else topo_); null before the first sweep.
  const Topology* programmed_topology() const { return routed_topo_ ? routed_topo_.get() : topo_.get(); }
  // After programming: the RouteProof of the programmed tables for the next local repair, unless the
  // local repair that made them handed one on (~12 ms on the 1728-host tree, off the repair's path).
  void prove_programmed_routes();
  // Name repaired tables after the programmed tables' engine ("+repair" once a route changed).
  void name_repaired(RoutingTables& tables, const RepairStats& rs, SweepSummary& s) const;
  /// The topology routing sees (sweep_isolation.cpp): `topo` itself, or a copy without the cables of the
  /// isolation requests that plan_isolation allows. Fills isolation_.
  std::shared_ptr<const Topology> isolation_phase(const std::shared_ptr<const Topology>& topo);
  EndportSettings endport_settings(const Topology& topo) const;
  // The partition plan of this sweep's fabric, indexes kept from the last one (sweep_partitions.cpp).
  std::shared_ptr<const PartitionPlan> plan_partitions_phase(const SweepFabric& fabric) const;
  // The SL2VL and VL arbitration plan of this sweep's fabric and tables; both empty when QoS is off
  // (sweep_qos.cpp). The SL2VL plan's problems and warnings are logged. False (a problem added, nothing may be
  // written) when layered tables would leave some hop mapping a route's SL off its layer's VL.
  bool plan_qos_phase(const SweepFabric& fabric, std::vector<SweepProblem>& problems);
  // The steps of heavy_sweep (sweep_runner.cpp), in order. Each returns false when the sweep ends there.
  // Discovery and the gate after it: false when there is nothing (or nothing of ours) to configure.
  bool discovery_step(HeavySweep& h, const DiscoveryGate& gate, SweepScope scope, const std::vector<Lid>& changed_lids);
  // What the SM wants: LIDs, routes, endport settings, the QoS plan; the reset rule applied to what the
  // switches are believed to hold.
  bool desired_step(HeavySweep& h);
  // Phases 4 to 10: write what differs, record what the SMAs acknowledged.
  void programming_step(HeavySweep& h);
  void endports_phase(HeavySweep& h);
  void switches_phase(HeavySweep& h);
  void partitions_phase(HeavySweep& h);
  void qos_phase(HeavySweep& h);
  void multicast_phase(HeavySweep& h);
  void link_phases(HeavySweep& h);
  // After the phases: subnet up or not, what was programmed remembered, the end-of-sweep work.
  void conclusion_step(HeavySweep& h);
  // The summary's SMP figures and time, what the sweep leaves for the next one, the state files.
  SweepSummary finish(HeavySweep& h, bool keep);
  // Endports whose PortInfo Set carries ClientReregister this sweep (sweep_partitions.cpp).
  std::unordered_set<Guid> reregister_set(const Topology& topo, Lid sm_lid);
  // Endports not in `topo` are no longer counted as re-registered: back in a later sweep, they are told
  // to re-register again (the SA dropped their memberships while they were gone).
  void forget_absent_reregistered(const Topology& topo);

  boost::asio::io_context& io_;
  MKeyBook m_keys_;               ///< which key each port holds (before transport_: it asks the book)
  mad::MKeyTransport transport_;  ///< every SMP of every sweep carries its target port's M_Key
  Policy policy_;
  Guid2Lid remembered_;
  /// The roots of the last fat tree ftree routed (RoutingTables::tree_roots): the chain runs once more
  /// with those present when ftree's own inference declines and the policy names no roots.
  std::vector<Guid> ftree_roots_;
  bool full_reroute_ = false;
  bool route_proofs_ = true;
  bool roce_during_sweep_ = false;
  /// state_dir/guid2lid (read once before the first LID assignment; a sweep that changes nothing skips
  /// the fsyncs of a rewrite), state_dir/port-fields (sweep_port_fields.cpp), ca-order and ar-plan.json.
  KeptStateFile<Guid2Lid> guid2lid_file_;
  KeptStateFile<AppliedPortFields> port_fields_file_;
  RoutingStateFiles routing_files_;
  AppliedState applied_;  ///< what every switch and port acknowledged of every table, by GUID
  /// Endports (port GUID) that took a ClientReregister since this SM became master, and the MasterSMLID
  /// they were told; a port not in the set, or a new MasterSMLID, gets the bit again (IBA 14.4.11).
  struct Reregistered {
    std::unordered_set<Guid> ports;
    Lid sm_lid = 0;
  } reregistered_;
  McastManager mcast_;  ///< the SA's groups and the trees last programmed
  ObservedFabric last_;  ///< the last configuring sweep's fabric as known at its end (topo null: none)
  std::shared_ptr<const Topology> topo_;
  /// The topology the programmed tables were routed on: topo_, or topo_ without its isolated cables.
  std::shared_ptr<const Topology> routed_topo_;
  /// health.isolate's requests and what the last routing phase decided for each; the operator's drains.
  struct Isolation {
    std::vector<PortKey> requests;
    std::vector<IsolationOutcome> outcomes;
    std::vector<PortKey> drains;
    std::size_t drained_cables = 0;
  } isolation_;
  /// health.babbling_port's requests and what the last master sweep's did.
  struct PhysStateRequests {
    std::vector<PortKey> disable, enable;
    PhysStateOutcome outcome;
  } phys_state_;
  /// sweep_phys_state.cpp: send the disable and enable requests (the last phase of a master sweep).
  void phys_state_phase(SmpBatch& batch, SweepFabric& fabric, std::vector<SweepProblem>& problems);
  DesiredFabric desired_;        ///< what the current (or last) sweep wants: LIDs, tables, endport settings
  DesiredFabric programmed_;     ///< the desired state of the last sweep that reached programming
  RoceStateWriter roce_writer_;  // last: its destructor finishes the write while the rest still exists
};

}  // namespace smd
