#include "smd/sweep/sweep_runner.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "smd/program/pkey_programmer.h"
#include "smd/program/port_config.h"
#include "smd/program/port_state_change.h"
#include "smd/program/qos_programmer.h"
#include "smd/program/switch_programmer.h"
#include "smd/sweep/light_sweep.h"
#include "smd/sweep/phase_timer.h"

namespace smd {

namespace {

const LidMap kNoLids;
const RoutingTables kNoTables;

// P_Key tables, SL2VL and VLArb tables, MFTs and the PortInfo fields' answers the SM can no longer believe: a node that
// left the fabric may come back reset, and a switch whose LinearFDBTop is not the one it acknowledged was reset
// (lft_plan.h) and lost its P_Key tables and MFT with its LFT (ibsim's switches, like many, do not support
// MulticastFDBTop, so the LFT's top is the only sign). Their tables are written again in full.
void forget_reset_tables(const Topology* before, const SweepFabric& fabric, const AppliedTables& lfts,
                         AppliedPKeys& pkeys, AppliedQos& qos, AppliedMft& mft, AppliedPortFields& fields) {
  const Topology& topo = fabric.topo();
  if (before != nullptr) {
    for (const Node& n : before->nodes()) {
      if (topo.find(n.guid)) continue;
      pkeys.forget(n.guid);
      qos.forget(n.guid);
      mft.forget(n.guid);
      fields.forget(n.guid);
    }
  }
  for (NodeIndex s : topo.switches()) {
    const Guid guid = topo.node(s).guid;
    const AppliedLft* acked = lfts.lft(guid);
    const mad::SwitchInfo* held = fabric.switch_info(s);
    if (acked != nullptr && acked->top && held != nullptr && *acked->top != held->linear_fdb_top) {
      pkeys.forget(guid);
      qos.forget(guid);
      mft.forget(guid);
      fields.forget(guid);
    }
  }
}

}  // namespace

SweepRunner::SweepRunner(boost::asio::io_context& io, mad::SmpTransport& transport, const Policy& policy)
    : io_(io), transport_(transport, policy.security.m_key), policy_(policy) {
  m_keys_.set_policy(policy.security);
  transport_.set_lookup(&m_keys_);
}

const LidMap& SweepRunner::lids() const { return desired_.lids ? *desired_.lids : kNoLids; }

const RoutingTables& SweepRunner::tables() const { return desired_.tables ? *desired_.tables : kNoTables; }

void SweepRunner::set_policy(const Policy& policy) {
  policy_ = policy;
  full_reroute_ = true;       // routing options may have changed: the next sweep programs a fresh run
  guid2lid_written_.reset();  // state_dir may have moved: the next sweep writes its files there
  port_fields_written_.reset();
  ca_order_written_.clear();
  // A changed key reaches the ports in the next sweep's PortInfo Sets; ports still protected by the old
  // key refuse them until their M_KeyLeasePeriod runs out (IBA 14.2.4.2), and the sweep says so.
  transport_.set_m_key(policy.security.m_key);
  m_keys_.set_policy(policy.security);  // the old key stays a candidate until every port has the new one
}

SweepSummary SweepRunner::heavy_sweep(const DiscoveryGate& gate, SweepScope scope,
                                      const std::vector<Lid>& changed_lids) {
  SweepSummary s;
  const auto t_start = SweepClock::now();
  const mad::TransportStats before = transport_.stats();
  SmpBatch batch(io_, transport_);
  std::vector<SweepProblem> problems;
  SweepFabric fabric;
  // keep: the next kFailed re-sweep may start from this sweep's fabric, as this sweep leaves it.
  auto finish = [&](bool keep) {
    const mad::TransportStats after = transport_.stats();
    s.smps_sent = after.sent - before.sent;
    s.retries = after.retries - before.retries;
    s.timeouts = after.timeouts - before.timeouts;
    s.send_errors = after.send_errors - before.send_errors;
    s.problems = problems;
    s.total_ms = ms_since(t_start);
    if (fabric.observed().topo) m_keys_.learn(fabric);
    m_keys_.save(policy_.sm.state_dir);
    last_ = keep ? std::move(fabric).known() : ObservedFabric{};
    return s;
  };

  // Phase 1: what the SMAs report. Ports protected by keys of an earlier run are reached through the
  // keys and cables it left in state_dir.
  m_keys_.begin_sweep(policy_.sm.state_dir);
  ObservedFabric observed = discover(batch, scope, changed_lids, s);
  problems = observed.problems;
  const std::shared_ptr<const Topology> topo_ptr = observed.topo;
  const Topology& topo = *topo_ptr;
  s.switches = topo.switches().size();
  s.cas = topo.cas().size();
  s.links = topo.link_count();
  spdlog::info("sweep: {} switches, {} CAs, {} links", s.switches, s.cas, s.links);
  if (topo.size() == 0) {
    problems.push_back({ProblemCode::kTimeout, 0, "0", "NodeInfo", "the SM's own node did not answer"});
    return finish(false);
  }
  // An SM on a CA whose own cable is down sees a "subnet" of itself only. That is no subnet to configure,
  // and nothing of the last one (LIDs, routes, the SA's members, the RoCE files) is replaced by it: the
  // sweep stops here, and the next one after the link is back carries on from what was programmed.
  if (const Node& sm = topo.node(topo.sm_node);
      !sm.is_switch() && topo.sm_port < sm.ports.size() && !sm.ports[topo.sm_port].connected()) {
    problems.push_back({ProblemCode::kNotActive, sm.guid, "0", "PortState " + std::to_string(topo.sm_port),
                        "the SM's own port has no link: nothing to configure until it comes back"});
    return finish(false);
  }
  if (const GateVerdict verdict = gate ? gate(observed) : GateVerdict::kConfigure; verdict != GateVerdict::kConfigure) {
    s.stopped_after_discovery = true;
    topo_ = topo_ptr;
    // Another SM is master: remember the LIDs it gave out, so a takeover keeps every one of them. A lower
    // master that still holds part of the subnet gave out LIDs that may clash with ours: nothing is
    // remembered of them (the sweep after its handover keeps ours and moves only what clashes).
    if (verdict == GateVerdict::kStandBy) remember_port_lids(topo);
    return finish(false);
  }
  fabric = SweepFabric(std::move(observed));
  m_keys_.learn(fabric);  // the keys the ports showed, the cables found
  // A port this sweep does not find leaves its multicast groups in the SA (SaAgent drops members whose
  // port is gone), so when it returns it is new again: ClientReregister makes it join again.
  forget_absent_reregistered(topo);

  // Phases 2 and 3: what the SM wants.
  if (!assign_lids_phase(topo, s, problems)) return finish(true);
  // Routing (and the multicast trees) see the fabric without the isolated cables; everything else, the
  // links' states included, sees the whole fabric.
  const std::shared_ptr<const Topology> route_topo = isolation_phase(topo_ptr);
  if (!routing_phase(*route_topo, s, problems)) return finish(true);
  desired_.endports = endport_settings(topo);
  // sm.client_reregister false (OpenSM's no_clients_rereg): no port is asked, whatever happened.
  if (policy_.sm.client_reregister) desired_.endports.client_reregister = reregister_set(topo, desired_.endports.sm_lid);
  if (!plan_qos_phase(fabric, problems)) return finish(true);
  load_port_fields();
  forget_reset_tables(topo_.get(), fabric, applied_, applied_pkeys_, applied_qos_, applied_mft_, applied_port_fields_);
  // The RoCE plan of these cables goes to state_dir on the writer's idle-priority thread, now (built
  // while the phases below wait for SMP answers) or once they are done (set_roce_during_sweep); this
  // sweep never waits for it.
  if (roce_during_sweep_) roce_writer_.submit(topo_ptr, policy_.sm.state_dir, policy_.roce);

  // Phases 4 to 10: write what differs; the SMAs' answers go into `fabric`, `applied_`, `applied_pkeys_`,
  // `applied_qos_` and `applied_mft_`.
  {
    PhaseTimer t(s, SweepPhase::kEndports, "endports configured (LID, port fields)");
    std::vector<Guid> reregistered;
    // The CA ports are armed by the Set that gives them their LID; the switch ports in "links armed".
    const ArmCaPorts arm{&policy_.qos};
    s.port_sets += configure_endports(batch, fabric, *desired_.lids, desired_.endports, applied_port_fields_, problems,
                                      &reregistered, &arm)
                       .sets;
    s.client_reregisters = static_cast<unsigned>(reregistered.size());
    reregistered_.insert(reregistered.begin(), reregistered.end());
    // HOQLife and the other fields of the switch ports, before any link is armed (OpenSM's link manager
    // pass with PortState NoChange): a link carries data only once both ends hold them.
    s.port_sets +=
        configure_switch_port_fields(batch, fabric, desired_.endports.fields, applied_port_fields_, problems).sets;
    m_keys_.learn(fabric);  // the keys the endports took: every later SMP of this sweep carries them
  }
  {
    PhaseTimer t(s, SweepPhase::kSwitches, "switches configured (LFT blocks)");
    const ProgramCounts pc =
        program_switches(batch, fabric, *desired_.tables, applied_, problems, desired_.endports.fields.life_time_value);
    s.lft_blocks_written = pc.blocks_written;
    s.lft_blocks_skipped = pc.blocks_skipped;
  }
  {
    PhaseTimer t(s, SweepPhase::kPartitions, "partitions configured (P_Key tables)");
    // Planned only now, after the LFT blocks: the plan cannot fail and nothing before this phase reads
    // it, and after a lost cable the routes are what traffic waits for (its ~4 ms on the 1728-host tree
    // used to come between the routing and the first LFT block).
    desired_.partitions = plan_partitions_phase(fabric);
    const PKeyCounts pk = program_pkeys(batch, fabric, *desired_.partitions, applied_pkeys_, problems);
    s.pkey_blocks_written = pk.blocks_written;
    s.pkey_blocks_skipped = pk.blocks_skipped;
    s.port_sets += pk.enforcement_sets;
  }
  // After the P_Key tables as OpenSM (pkey manager, then QoS setup), and before multicast and the link
  // transitions: a link carries data only once it is Active, so its VLs are mapped by then. Nothing at
  // all is programmed when QoS is off (OpenSM without -Q): ports keep the tables they have.
  if (desired_.sl2vl) {
    PhaseTimer t(s, SweepPhase::kQos, "QoS configured (SL2VL, VLArb)");
    const QosCounts qc = program_qos(batch, fabric, *desired_.sl2vl, desired_.vlarb, applied_qos_, problems);
    s.sl2vl_tables_written = qc.sl2vl_tables_written;
    s.sl2vl_tables_skipped = qc.sl2vl_tables_skipped;
    s.vlarb_blocks_written = qc.vlarb_blocks_written;
    s.vlarb_blocks_skipped = qc.vlarb_blocks_skipped;
    s.port_sets += qc.port_sets;
  }
  // sm.multicast false (OpenSM's disable_multicast): the multicast manager does not run; switches keep
  // whatever MFTs they hold.
  if (policy_.sm.multicast) {
    PhaseTimer t(s, SweepPhase::kMulticast, "multicast configured (MFT blocks)");
    unsigned rebuilt = 0;
    const McastProgramCounts mc = multicast_phase(batch, fabric, route_topo, problems, rebuilt);
    s.mcast_groups = mc.groups;
    s.mcast_trees_rebuilt = rebuilt;
    s.mft_blocks_written = mc.blocks_written;
    s.mft_blocks_skipped = mc.blocks_skipped;
  }
  // Links armed, then active (ibsim, like real ports, needs both ends Armed first).
  {
    PhaseTimer t(s, SweepPhase::kLinksArmed, "links armed");
    s.port_sets += transition_links(batch, fabric, PortState::kInit, PortState::kArmed, problems, &policy_.qos).sets;
  }
  {
    PhaseTimer t(s, SweepPhase::kLinksActive, "links active");
    s.port_sets += transition_links(batch, fabric, PortState::kArmed, PortState::kActive, problems).sets;
  }
  {
    PhaseTimer t(s, SweepPhase::kPortStateChange, "PortStateChange cleared");
    clear_port_state_change(batch, fabric, problems);
  }
  save_port_fields();

  // Subnet up only when every link is Active and every switch holds its tables.
  for (SweepProblem& p : ports_not_active(fabric)) problems.push_back(std::move(p));
  for (NodeIndex sw : topo.switches()) {
    const Node& node = topo.node(sw);
    if (!applied_.holds(node.guid, desired_.tables->lft[sw])) {
      problems.push_back({ProblemCode::kNotTaken, node.guid, format_dr_path(node.dr_path), "LinearForwardingTable",
                          "switch does not hold its tables"});
    }
  }
  topo_ = topo_ptr;
  routed_topo_ = route_topo;
  programmed_ = desired_;
  s.subnet_up = problems.empty();
  if (s.subnet_up) spdlog::info("sweep: SUBNET UP");
  // After the check: a link disabled now is gone from the next sweep's fabric, not a failure of this one.
  phys_state_phase(batch, fabric, problems);
  if (!roce_during_sweep_) roce_writer_.submit(topo_ptr, policy_.sm.state_dir, policy_.roce);
  prove_programmed_routes();  // bookkeeping for the next repair, after the fabric is up
  return finish(true);
}

void SweepRunner::forget_programming() {
  applied_.forget_all();
  applied_mft_.forget_all();
  mcast_tables_ = {};  // the next master sweep builds every tree afresh
  ++mcast_generation_;
  mcast_tables_topo_.reset();
  routed_topo_.reset();
  applied_pkeys_.forget_all();
  applied_qos_.forget_all();
  applied_port_fields_.forget_all();
  reregistered_.clear();  // the first sweep as master again tells every client to re-register
  last_ = ObservedFabric{};
  full_reroute_ = true;
}

bool SweepRunner::light_sweep_finds_change(std::string& reason) {
  if (!topo_) {
    reason = "no heavy sweep yet";
    return true;
  }
  SmpBatch batch(io_, transport_);
  const LightSweepResult r = light_sweep(batch, *topo_, policy_.sm.max_resweeps);
  reason = r.reason;
  return r.change;
}

}  // namespace smd
