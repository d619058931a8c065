// Phase 3 of a heavy sweep. Which tables to program is route_after_change's decision (routing/chain/
// route_after_change.h: with routing.repair minimal and only lost links or nodes, the local repair of the
// programmed tables, else the engine chain and the minimal repair against its fresh tables), the same one
// the what-if drain makes; here the daemon keeps its state, logs each step and names repaired tables. The
// CA order and the AR plan go to state_dir once the sweep's timed phases are over
// (smd/state/routing_state_files.h).
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "routing/isolation/routed_topology.h"
#include "routing/verify/updown_check.h"
#include "smd/sweep/phase_timer.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

namespace {
constexpr std::string_view kRepairedSuffix = "+repair";
}  // namespace

bool SweepRunner::routing_phase(const Topology& topo, SweepSummary& s, std::vector<SweepProblem>& problems) {
  PhaseTimer t(s, SweepPhase::kRouting, "routing computed and verified");
  const LidMap& lids = *desired_.lids;
  const bool full = std::exchange(full_reroute_, false);
  // The previous tables were routed on routed_topo_ (without the cables isolated then): a cable no longer
  // isolated is a gained link, and a newly isolated one a lost link the repair routes around.
  const Topology* before = programmed_.tables ? programmed_topology() : nullptr;
  auto proof = std::make_shared<RouteProof>();
  RouteChangeInput in;
  in.before = before;
  in.previous = before ? programmed_.tables.get() : nullptr;
  in.previous_proof = programmed_.route_proof.get();
  in.proof_out = proof.get();
  in.now = &topo;
  in.lids = &lids;
  in.chain = &policy_.routing.engines;
  in.options = &policy_.routing.options;
  in.minimal_repair = !full && policy_.routing.repair == RepairMode::kMinimal;
  in.last_ftree_roots = ftree_roots_;
  RouteSteps steps;
  auto routed = route_after_change(in, steps);
  log_route_steps(steps, routed.ok() ? &*routed : nullptr);
  if (!routed.ok() && isolation_.drained_cables > 0) routed = route_drained_fallback(in, routed.error(), s);
  if (!routed.ok()) {
    desired_.route_proof = nullptr;
    problems.push_back({ProblemCode::kNoRoute, 0, "0", "routing", routed.error().message});
    return false;
  }
  if (!routed->fresh_tree_roots.empty()) ftree_roots_ = std::move(routed->fresh_tree_roots);
  for (const ChainAttempt& a : routed->declined) s.declined.push_back(a.engine + ": " + a.error.message);
  if (!routed->warning.empty()) s.declined.push_back("warning: " + routed->warning);
  // An input the engine could not fully use (a GUID of its routing order not in the fabric) is not worth
  // refusing the routes for, but the operator should hear of it whenever the chain ran.
  if (routed->made_by != TablesMadeBy::kLocalRepair) {
    for (const std::string& note : routed->tables.notes) spdlog::warn("routing: {}: {}", routed->tables.engine, note);
  }
  // The local repair hands its proof on; any other tables are proved after programming (prove_programmed_routes).
  desired_.route_proof = routed->made_by == TablesMadeBy::kLocalRepair ? std::move(proof) : nullptr;
  if (routed->made_by != TablesMadeBy::kFresh) name_repaired(routed->tables, routed->stats, s);
  desired_.tables = std::make_shared<const RoutingTables>(std::move(routed->tables));
  const RoutingTables& tables = *desired_.tables;
  s.engine = tables.engine;
  std::size_t lid_count = 0;  // each entry holds 2^LMC LIDs (max_lid() overstates it when LMC ranges align)
  for (const auto& e : lids.entries()) lid_count += std::size_t{1} << e.lmc;
  spdlog::info("routing: engine {} routed {} LIDs (up to {:#06x}) on {} switches", s.engine, lid_count, lids.max_lid(),
               s.switches);
  return true;
}

Result<RouteAfterChange> SweepRunner::route_drained_fallback(const RouteChangeInput& in, const Error& failed,
                                                             SweepSummary& s) const {
  const std::vector<std::string> fallback{std::string(kDrainFallbackEngine)};
  RouteChangeInput again = in;
  again.chain = &fallback;
  again.minimal_repair = false;  // the repair was tried and declined: fresh min-hop tables
  RouteSteps steps;
  auto routed = route_after_change(again, steps);
  if (!routed.ok()) {
    spdlog::error("routing: no engine of the chain routes the fabric with its drains ({}), and {} fails too: {}",
                  failed.message, kDrainFallbackEngine, routed.error().message);
    return failed;
  }
  // OpenSM's answer to a chain that fails: its default engine. Said every sweep, as the drain is forced.
  spdlog::warn(
      "routing: no engine of the chain routes the fabric with its drains ({}); routed with {} (smctl "
      "undrain, or a policy whose chain routes it, to leave it)",
      failed.message, kDrainFallbackEngine);
  s.declined.push_back("chain with the drains: " + failed.message);
  return routed;
}

void SweepRunner::log_route_steps(const RouteSteps& steps, const RouteAfterChange* routed) const {
  if (!steps.local_repair_declined.empty()) {
    spdlog::info("routing: {}; running the engine chain", steps.local_repair_declined);
  }
  if (steps.ftree_retry_roots > 0) {
    // A leaf whose hosts are all down reads as a top switch when levels are counted up from the CAs.
    spdlog::info(
        "routing: ftree declined with levels counted from the CAs; routed with the {} top switches of its "
        "last run as roots",
        steps.ftree_retry_roots);
  }
  if (routed == nullptr) return;
  for (const ChainAttempt& a : routed->declined) {
    spdlog::info("routing: engine {} declined: {}", a.engine, a.error.message);
  }
  if (!routed->warning.empty()) spdlog::warn("routing: {}", routed->warning);
  if (steps.mix == MixVerdict::kRejected) {
    spdlog::warn("routing: minimal repair rejected ({}), programming the fresh tables", steps.mix_rejected);
  }
  const RepairStats& rs = routed->stats;
  if (rs.lids_touched == 0) return;
  if (routed->made_by == TablesMadeBy::kLocalRepair) {
    spdlog::info(
        "routing: local repair: {} LIDs had broken routes, {} (switch, LID) entries changed, {} kept, {} LIDs "
        "classified{}",
        rs.lids_touched, rs.entries_repaired, rs.entries_kept, rs.lids_proved,
        rs.verified_fully ? "; host-traffic dependency graph checked whole (switch-LID valleys)" : "");
  } else if (routed->made_by == TablesMadeBy::kMinimalRepair) {
    spdlog::info("routing: minimal repair: {} LIDs had broken routes, {} (switch, LID) entries re-routed, {} kept",
                 rs.lids_touched, rs.entries_repaired, rs.entries_kept);
  }
}

void SweepRunner::prove_programmed_routes() {
  const RoutingTables* tables = programmed_.tables.get();
  if (!route_proofs_ || programmed_.route_proof || policy_.routing.repair != RepairMode::kMinimal ||
      tables == nullptr || tables->layering || tables->adaptive || programmed_topology() == nullptr) {
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  programmed_.route_proof =
      std::make_shared<const RouteProof>(prove_tables(*programmed_topology(), *tables, *programmed_.lids));
  spdlog::debug("routing: route proof for the next repair in {:.1f} ms",
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
}

void SweepRunner::name_repaired(RoutingTables& tables, const RepairStats& rs, SweepSummary& s) const {
  // Most routes are still the previous engine's: name it, marked as repaired once a route was.
  std::string engine = programmed_.tables->engine;
  if (rs.entries_repaired > 0 && !engine.ends_with(kRepairedSuffix)) engine += kRepairedSuffix;
  tables.engine = engine;
  s.repair_entries = rs.entries_repaired;
}

EndportSettings SweepRunner::endport_settings(const Topology& topo) const {
  EndportSettings e;
  e.subnet_prefix = policy_.sm.subnet_prefix;
  e.sm_lid = desired_.lids->base_lid(topo.sm_node, topo.sm_port);
  e.m_key = policy_.security.m_key;
  e.m_key_protect = static_cast<std::uint8_t>(policy_.security.m_key_protect);
  e.m_key_lease_period_s = static_cast<std::uint16_t>(policy_.security.m_key_lease_period_s);
  e.m_key_per_port = policy_.security.m_key_per_port;
  const PortsPolicy& p = policy_.ports;
  auto code = [](unsigned v) { return static_cast<std::uint8_t>(v); };  // ranges checked by the loader
  e.fields = {code(p.subnet_timeout),
              code(p.sm_sl),
              code(p.head_of_queue_lifetime),
              code(p.leaf_head_of_queue_lifetime),
              code(p.vl_stall_count),
              code(p.leaf_vl_stall_count),
              code(p.local_phy_errors_threshold),
              code(p.overrun_errors_threshold),
              code(p.force_link_width),
              code(p.force_link_speed),
              code(p.force_link_speed_ext),
              code(p.packet_life_time)};
  return e;
}

}  // namespace smd
