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
  guid2lid_file_.forget_written();  // state_dir may have moved: the next sweep writes its files there
  port_fields_file_.forget_written();
  routing_files_.forget_written();
  // A changed key reaches the ports in the next sweep's PortInfo Sets; ports still protected by the old
  // key refuse them until their M_KeyLeasePeriod runs out (IBA 14.2.4.2), and the sweep says so.
  transport_.set_m_key(policy.security.m_key);
  m_keys_.set_policy(policy.security);  // the old key stays a candidate until every port has the new one
}

// One heavy sweep's working state, handed from step to step.
struct HeavySweep {
  HeavySweep(boost::asio::io_context& io, mad::SmpTransport& transport)
      : before(transport.stats()), batch(io, transport) {}

  SweepSummary s;
  const SweepClock::time_point t_start = SweepClock::now();
  const mad::TransportStats before;  ///< the transport's counters at the start: the summary's SMP figures
  SmpBatch batch;
  std::vector<SweepProblem> problems;
  ObservedFabric observed;  ///< what discovery found, until the gate lets the sweep go on
  SweepFabric fabric;       ///< then: that, with what the SMAs acknowledge of this sweep's Sets
  std::shared_ptr<const Topology> topo;
  /// The topology routing (and the multicast trees) see: topo without the isolated cables. Set once the
  /// routing phase succeeded: the state files of the routes are written at the end of the sweep.
  std::shared_ptr<const Topology> route_topo;
};

SweepSummary SweepRunner::heavy_sweep(const DiscoveryGate& gate, SweepScope scope,
                                      const std::vector<Lid>& changed_lids) {
  HeavySweep h(io_, transport_);
  if (!discovery_step(h, gate, scope, changed_lids)) return finish(h, false);
  if (!desired_step(h)) return finish(h, true);
  programming_step(h);
  conclusion_step(h);
  return finish(h, true);
}

SweepSummary SweepRunner::finish(HeavySweep& h, bool keep) {
  SweepSummary& s = h.s;
  const mad::TransportStats after = transport_.stats();
  s.smps_sent = after.sent - h.before.sent;
  s.retries = after.retries - h.before.retries;
  s.timeouts = after.timeouts - h.before.timeouts;
  s.send_errors = after.send_errors - h.before.send_errors;
  s.problems = h.problems;
  s.total_ms = ms_since(h.t_start);
  if (h.fabric.observed().topo) m_keys_.learn(h.fabric);
  m_keys_.save(policy_.sm.state_dir);
  // keep: the next kFailed re-sweep may start from this sweep's fabric, as this sweep leaves it.
  last_ = keep ? std::move(h.fabric).known() : ObservedFabric{};
  // Outside the timed phases: the routes' files are not part of the routing time.
  if (h.route_topo && desired_.tables) routing_files_.write(policy_.sm.state_dir, *h.route_topo, *desired_.tables);
  return s;
}

bool SweepRunner::discovery_step(HeavySweep& h, const DiscoveryGate& gate, SweepScope scope,
                                 const std::vector<Lid>& changed_lids) {
  SweepSummary& s = h.s;
  // Phase 1: what the SMAs report. Ports protected by keys of an earlier run are reached through the
  // keys and cables it left in state_dir.
  m_keys_.begin_sweep(policy_.sm.state_dir);
  h.observed = discover(h.batch, scope, changed_lids, s);
  h.problems = h.observed.problems;
  h.topo = h.observed.topo;
  const Topology& topo = *h.topo;
  s.switches = topo.switches().size();
  s.cas = topo.cas().size();
  s.links = topo.link_count();
  spdlog::info("sweep: {} switches, {} CAs, {} links", s.switches, s.cas, s.links);
  if (topo.size() == 0) {
    h.problems.push_back({ProblemCode::kTimeout, 0, "0", "NodeInfo", "the SM's own node did not answer"});
    return false;
  }
  // An SM on a CA whose own cable is down sees a "subnet" of itself only. That is no subnet to configure,
  // and nothing of the last one (LIDs, routes, the SA's members, the RoCE files) is replaced by it: the
  // sweep stops here, and the next one after the link is back carries on from what was programmed.
  if (const Node& sm = topo.node(topo.sm_node);
      !sm.is_switch() && topo.sm_port < sm.ports.size() && !sm.ports[topo.sm_port].connected()) {
    h.problems.push_back({ProblemCode::kNotActive, sm.guid, "0", "PortState " + std::to_string(topo.sm_port),
                          "the SM's own port has no link: nothing to configure until it comes back"});
    return false;
  }
  if (const GateVerdict verdict = gate ? gate(h.observed) : GateVerdict::kConfigure;
      verdict != GateVerdict::kConfigure) {
    s.stopped_after_discovery = true;
    topo_ = h.topo;
    // Another SM is master: remember the LIDs it gave out, so a takeover keeps every one of them. A lower
    // master that still holds part of the subnet gave out LIDs that may clash with ours: nothing is
    // remembered of them (the sweep after its handover keeps ours and moves only what clashes).
    if (verdict == GateVerdict::kStandBy) remember_port_lids(topo);
    return false;
  }
  h.fabric = SweepFabric(std::move(h.observed));
  m_keys_.learn(h.fabric);  // the keys the ports showed, the cables found
  // A port this sweep does not find leaves its multicast groups in the SA (SaAgent drops members whose
  // port is gone), so when it returns it is new again: ClientReregister makes it join again.
  forget_absent_reregistered(topo);
  return true;
}

bool SweepRunner::desired_step(HeavySweep& h) {
  const Topology& topo = *h.topo;
  // Phases 2 and 3: what the SM wants.
  if (!assign_lids_phase(topo, h.s, h.problems)) return false;
  // Routing (and the multicast trees) see the fabric without the isolated cables; everything else, the
  // links' states included, sees the whole fabric.
  const std::shared_ptr<const Topology> route_topo = isolation_phase(h.topo);
  if (!routing_phase(*route_topo, h.s, h.problems)) return false;
  h.route_topo = route_topo;
  desired_.endports = endport_settings(topo);
  // sm.client_reregister false (OpenSM's no_clients_rereg): no port is asked, whatever happened.
  if (policy_.sm.client_reregister) desired_.endports.client_reregister = reregister_set(topo, desired_.endports.sm_lid);
  if (!plan_qos_phase(h.fabric, h.problems)) return false;
  load_port_fields();
  for (Guid guid : applied_.forget_reset(topo_.get(), h.fabric)) {
    spdlog::debug("switch {}: its LinearFDBTop is not the one it acknowledged: every table is written again",
                  format_guid(guid));
  }
  // The RoCE plan of these cables goes to state_dir on the writer's idle-priority thread, now (built
  // while the phases below wait for SMP answers) or once they are done (set_roce_during_sweep); this
  // sweep never waits for it.
  if (roce_during_sweep_) roce_writer_.submit(h.topo, policy_.sm.state_dir, policy_.roce);
  return true;
}

void SweepRunner::programming_step(HeavySweep& h) {
  // Phases 4 to 10: write what differs; the SMAs' answers go into `h.fabric` and `applied_`.
  endports_phase(h);
  switches_phase(h);
  partitions_phase(h);
  // After the P_Key tables as OpenSM (pkey manager, then QoS setup), and before multicast and the link
  // transitions: a link carries data only once it is Active, so its VLs are mapped by then. Nothing at
  // all is programmed when QoS is off (OpenSM without -Q): ports keep the tables they have.
  if (desired_.sl2vl) qos_phase(h);
  // sm.multicast false (OpenSM's disable_multicast): the multicast manager does not run; switches keep
  // whatever MFTs they hold.
  if (policy_.sm.multicast) multicast_phase(h);
  link_phases(h);
  save_port_fields();
}

void SweepRunner::endports_phase(HeavySweep& h) {
  SweepSummary& s = h.s;
  PhaseTimer t(s, SweepPhase::kEndports, "endports configured (LID, port fields)");
  std::vector<Guid> reregistered;
  // The CA ports are armed by the Set that gives them their LID; the switch ports in "links armed".
  const ArmCaPorts arm{&policy_.qos};
  s.port_sets += configure_endports(h.batch, h.fabric, *desired_.lids, desired_.endports, applied_.port_fields,
                                    h.problems, &reregistered, &arm)
                     .sets;
  s.client_reregisters = static_cast<unsigned>(reregistered.size());
  reregistered_.ports.insert(reregistered.begin(), reregistered.end());
  // HOQLife and the other fields of the switch ports, before any link is armed (OpenSM's link manager
  // pass with PortState NoChange): a link carries data only once both ends hold them.
  s.port_sets +=
      configure_switch_port_fields(h.batch, h.fabric, desired_.endports.fields, applied_.port_fields, h.problems).sets;
  m_keys_.learn(h.fabric);  // the keys the endports took: every later SMP of this sweep carries them
}

void SweepRunner::switches_phase(HeavySweep& h) {
  PhaseTimer t(h.s, SweepPhase::kSwitches, "switches configured (LFT blocks)");
  const ProgramCounts pc = program_switches(h.batch, h.fabric, *desired_.tables, applied_.lft, h.problems,
                                            desired_.endports.fields.life_time_value);
  h.s.lft_blocks_written = pc.blocks_written;
  h.s.lft_blocks_skipped = pc.blocks_skipped;
}

void SweepRunner::partitions_phase(HeavySweep& h) {
  PhaseTimer t(h.s, SweepPhase::kPartitions, "partitions configured (P_Key tables)");
  // Planned only now, after the LFT blocks: the plan cannot fail and nothing before this phase reads
  // it, and after a lost cable the routes are what traffic waits for (its ~4 ms on the 1728-host tree
  // used to come between the routing and the first LFT block).
  desired_.partitions = plan_partitions_phase(h.fabric);
  const PKeyCounts pk = program_pkeys(h.batch, h.fabric, *desired_.partitions, applied_.pkeys, h.problems);
  h.s.pkey_blocks_written = pk.blocks_written;
  h.s.pkey_blocks_skipped = pk.blocks_skipped;
  h.s.port_sets += pk.enforcement_sets;
}

void SweepRunner::qos_phase(HeavySweep& h) {
  SweepSummary& s = h.s;
  PhaseTimer t(s, SweepPhase::kQos, "QoS configured (SL2VL, VLArb)");
  const QosCounts qc = program_qos(h.batch, h.fabric, *desired_.sl2vl, desired_.vlarb, applied_.qos, h.problems);
  s.sl2vl_tables_written = qc.sl2vl_tables_written;
  s.sl2vl_tables_skipped = qc.sl2vl_tables_skipped;
  s.vlarb_blocks_written = qc.vlarb_blocks_written;
  s.vlarb_blocks_skipped = qc.vlarb_blocks_skipped;
  s.port_sets += qc.port_sets;
}

void SweepRunner::multicast_phase(HeavySweep& h) {
  SweepSummary& s = h.s;
  PhaseTimer t(s, SweepPhase::kMulticast, "multicast configured (MFT blocks)");
  unsigned rebuilt = 0;
  const McastProgramCounts mc = mcast_.program(h.batch, h.fabric, h.route_topo, applied_.mft, h.problems, rebuilt);
  s.mcast_groups = mc.groups;
  s.mcast_trees_rebuilt = rebuilt;
  s.mft_blocks_written = mc.blocks_written;
  s.mft_blocks_skipped = mc.blocks_skipped;
}

void SweepRunner::link_phases(HeavySweep& h) {
  SweepSummary& s = h.s;
  // Links armed, then active (ibsim, like real ports, needs both ends Armed first).
  {
    PhaseTimer t(s, SweepPhase::kLinksArmed, "links armed");
    s.port_sets +=
        transition_links(h.batch, h.fabric, PortState::kInit, PortState::kArmed, h.problems, &policy_.qos).sets;
  }
  {
    PhaseTimer t(s, SweepPhase::kLinksActive, "links active");
    s.port_sets += transition_links(h.batch, h.fabric, PortState::kArmed, PortState::kActive, h.problems).sets;
  }
  {
    PhaseTimer t(s, SweepPhase::kPortStateChange, "PortStateChange cleared");
    clear_port_state_change(h.batch, h.fabric, h.problems);
  }
}

void SweepRunner::conclusion_step(HeavySweep& h) {
  const Topology& topo = *h.topo;
  // Subnet up only when every link is Active and every switch holds its tables.
  for (SweepProblem& p : ports_not_active(h.fabric)) h.problems.push_back(std::move(p));
  for (NodeIndex sw : topo.switches()) {
    const Node& node = topo.node(sw);
    if (!applied_.lft.holds(node.guid, desired_.tables->lft[sw])) {
      h.problems.push_back({ProblemCode::kNotTaken, node.guid, format_dr_path(node.dr_path), "LinearForwardingTable",
                            "switch does not hold its tables"});
    }
  }
  topo_ = h.topo;
  routed_topo_ = h.route_topo;
  programmed_ = desired_;
  h.s.subnet_up = h.problems.empty();
  if (h.s.subnet_up) spdlog::info("sweep: SUBNET UP");
  // After the check: a link disabled now is gone from the next sweep's fabric, not a failure of this one.
  phys_state_phase(h.batch, h.fabric, h.problems);
  if (!roce_during_sweep_) roce_writer_.submit(h.topo, policy_.sm.state_dir, policy_.roce);
  prove_programmed_routes();  // bookkeeping for the next repair, after the fabric is up
}

void SweepRunner::forget_programming() {
  applied_.forget_all();
  mcast_.forget_trees();  // the next master sweep builds every tree afresh
  routed_topo_.reset();
  reregistered_.ports.clear();  // the first sweep as master again tells every client to re-register
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
