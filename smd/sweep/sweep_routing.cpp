// Phase 3 of a heavy sweep. When the fabric only lost links or nodes since the tables now programmed were
// routed (routing.repair: minimal), the local repair of those tables first (routing/verify/local_repair.h:
// no engine run, only the broken routes re-routed and checked); if it declines, the engine chain (every
// result verified before it is accepted, routing/chain) and the minimal repair of the previous tables
// against the fresh ones. The CA order and the AR plan go to state_dir once the sweep's timed phases are
// over (smd/state/routing_state_files.h).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "routing/chain/registry.h"
#include "routing/verify/local_repair.h"
#include "routing/verify/repair.h"
#include "routing/verify/updown_check.h"
#include "routing/verify/verify.h"
#include "smd/sweep/phase_timer.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

namespace {
constexpr std::string_view kRepairedSuffix = "+repair";
}  // namespace

std::optional<Result<ChainResult>> SweepRunner::route_with_last_ftree_roots(const Topology& topo, const LidMap& lids,
                                                                            const Result<ChainResult>& routed) {
  if (ftree_roots_.empty() || ftree_roots_configured(policy_.routing.options)) return std::nullopt;
  if (routed.ok() && routed->tables.engine == "ftree") return std::nullopt;
  // A failed chain's attempts are only in its error text: retry whenever ftree was in it (the retry's
  // tables are verified like any other). A chain that succeeded says whether ftree declined.
  const auto in_chain = [&] {
    return std::find(policy_.routing.engines.begin(), policy_.routing.engines.end(), "ftree") !=
           policy_.routing.engines.end();
  };
  const auto declined = [](const ChainAttempt& a) {
    return a.engine == "ftree" && a.error.code == ErrorCode::kDeclined;
  };
  const bool ftree_declined =
      routed.ok() ? std::any_of(routed->declined.begin(), routed->declined.end(), declined) : in_chain();
  if (!ftree_declined) return std::nullopt;
  std::vector<Guid> present;
  for (Guid g : ftree_roots_) {
    if (topo.find(g)) present.push_back(g);
  }
  if (present.empty()) return std::nullopt;
  const std::size_t roots = present.size();
  auto rooted = route_with_chain(policy_.routing.engines, with_ftree_roots(policy_.routing.options, std::move(present)),
                                 topo, lids);
  if (!rooted.ok() || rooted->tables.engine != "ftree") return std::nullopt;
  // A leaf whose hosts are all down reads as a top switch when levels are counted up from the CAs.
  spdlog::info(
      "routing: ftree declined with levels counted from the CAs; routed with the {} top switches of its "
      "last run as roots",
      roots);
  return rooted;
}

bool SweepRunner::routing_phase(const Topology& topo, SweepSummary& s, std::vector<SweepProblem>& problems) {
  PhaseTimer t(s, SweepPhase::kRouting, "routing computed and verified");
  const LidMap& lids = *desired_.lids;
  const bool may_repair = repair_allowed(topo);
  std::optional<RoutingTables> local;
  if (may_repair) local = repair_locally_phase(topo, s);
  if (local) {
    desired_.tables = std::make_shared<const RoutingTables>(std::move(*local));
  } else {
    desired_.route_proof = nullptr;  // made after programming (prove_programmed_routes)
    auto routed = route_with_chain(policy_.routing.engines, policy_.routing.options, topo, lids);
    if (auto rooted = route_with_last_ftree_roots(topo, lids, routed)) routed = std::move(*rooted);
    if (routed.ok() && routed->tables.engine == "ftree") ftree_roots_ = routed->tables.tree_roots;
    if (!routed.ok()) {
      problems.push_back({ProblemCode::kNoRoute, 0, "0", "routing", routed.error().message});
      return false;
    }
    for (const ChainAttempt& a : routed->declined) {
      s.declined.push_back(a.engine + ": " + a.error.message);
      spdlog::info("routing: engine {} declined: {}", a.engine, a.error.message);
    }
    if (!routed->warning.empty()) {
      s.declined.push_back("warning: " + routed->warning);
      spdlog::warn("routing: {}", routed->warning);
    }
    // An input the engine could not fully use (a GUID of its routing order not in the fabric) is not
    // worth refusing the routes for, but the operator should hear of it.
    for (const std::string& note : routed->tables.notes) spdlog::warn("routing: {}: {}", routed->tables.engine, note);
    RoutingTables fresh = std::move(routed->tables);
    desired_.tables =
        std::make_shared<const RoutingTables>(may_repair ? choose_tables(topo, std::move(fresh), s) : std::move(fresh));
  }
  const RoutingTables& tables = *desired_.tables;
  s.engine = tables.engine;
  std::size_t lid_count = 0;  // each entry holds 2^LMC LIDs (max_lid() overstates it when LMC ranges align)
  for (const auto& e : lids.entries()) lid_count += std::size_t{1} << e.lmc;
  spdlog::info("routing: engine {} routed {} LIDs (up to {:#06x}) on {} switches", s.engine, lid_count, lids.max_lid(),
               s.switches);
  return true;
}

bool SweepRunner::repair_allowed(const Topology& topo) {
  const bool full = std::exchange(full_reroute_, false);
  // The previous tables were routed on routed_topo_ (without the cables isolated then): a cable no longer
  // isolated is a gained link, and a newly isolated one a lost link the repair routes around.
  const Topology* before = programmed_topology();
  return !full && policy_.routing.repair == RepairMode::kMinimal && before != nullptr &&
         programmed_.tables != nullptr && !topology_gained_links(*before, topo);
}

std::optional<RoutingTables> SweepRunner::repair_locally_phase(const Topology& topo, SweepSummary& s) {
  const Topology& before = *programmed_topology();  // repair_allowed checked it is there
  RepairStats rs;
  auto proof = std::make_shared<RouteProof>();
  auto local =
      repair_locally(before, *programmed_.tables, topo, *desired_.lids, rs, programmed_.route_proof.get(), proof.get());
  if (!local.ok()) {
    spdlog::info("routing: {}; running the engine chain", local.error().message);
    return std::nullopt;
  }
  name_repaired(*local, rs, s);
  desired_.route_proof = std::move(proof);
  if (rs.lids_touched > 0) {
    spdlog::info(
        "routing: local repair: {} LIDs had broken routes, {} (switch, LID) entries changed, {} kept, {} LIDs "
        "classified{}",
        rs.lids_touched, rs.entries_repaired, rs.entries_kept, rs.lids_proved,
        rs.verified_fully ? "; host-traffic dependency graph checked whole (switch-LID valleys)" : "");
  }
  return std::move(local.value());
}

RoutingTables SweepRunner::choose_tables(const Topology& topo, RoutingTables fresh, SweepSummary& s) {
  const RoutingTables* previous = programmed_.tables.get();
  const Topology* before = programmed_topology();
  // Layers are a property of the whole route set (a cycle may close through any route): keeping old routes
  // on their old layers beside fresh ones on fresh layers proves nothing, so layered tables are never mixed.
  if (fresh.layering || previous->layering) return fresh;
  const LidMap& lids = *desired_.lids;
  RepairStats rs;
  RoutingTables mixed = repair_tables(*before, *previous, topo, lids, fresh, rs);
  // Every route must deliver; deadlock freedom is required for the traffic CAs inject. A switch whose old
  // route died may need a detour with a down-up turn for its own (management) traffic: on a degraded fat
  // tree no up/down-legal route exists from it, and a fresh engine run would re-route everything instead.
  auto verified = verify_tables(topo, lids, mixed, false);
  if (!verified.ok() || (fresh.deadlock_free && !verified->ca_deadlock_free)) {
    spdlog::warn("routing: minimal repair rejected ({}), programming the fresh tables",
                 verified.ok() ? "CA traffic would have a channel-dependency cycle" : verified.error().message);
    return fresh;
  }
  mixed.deadlock_free = fresh.deadlock_free && verified->deadlock_free;
  name_repaired(mixed, rs, s);
  if (rs.lids_touched > 0) {
    spdlog::info("routing: minimal repair: {} LIDs had broken routes, {} (switch, LID) entries re-routed, {} kept",
                 rs.lids_touched, rs.entries_repaired, rs.entries_kept);
  }
  return mixed;
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
