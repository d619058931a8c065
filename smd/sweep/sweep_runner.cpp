#include "smd/sweep/sweep_runner.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "mad/codec/port_info.h"
#include "mad/transport/smp_batch.h"
#include "routing/chain/registry.h"
#include "routing/verify/repair.h"
#include "routing/verify/verify.h"
#include "smd/program/port_config.h"
#include "smd/state/ar_plan_json.h"
#include "smd/state/atomic_file.h"
#include "smd/state/guid2lid_file.h"
#include "smd/state/roce_state_writer.h"
#include "smd/sweep/incremental_discovery.h"
#include "smd/sweep/light_sweep.h"

namespace smd {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Times a phase into the summary and logs it in the field's words.
class PhaseTimer {
 public:
  PhaseTimer(SweepSummary& s, SweepPhase id, std::string name)
      : s_(s), id_(id), name_(std::move(name)), t0_(Clock::now()) {}
  ~PhaseTimer() {
    const double ms = ms_since(t0_);
    s_.phases.push_back({id_, name_, ms});
    spdlog::info("sweep: {} ({:.1f} ms)", name_, ms);
  }

 private:
  SweepSummary& s_;
  SweepPhase id_;
  std::string name_;
  Clock::time_point t0_;
};

}  // namespace

SweepRunner::SweepRunner(boost::asio::io_context& io, mad::SmpTransport& transport, const Policy& policy)
    : io_(io), transport_(transport, policy.security.m_key), policy_(policy) {}

void SweepRunner::set_policy(const Policy& policy) {
  policy_ = policy;
  full_reroute_ = true;  // routing options may have changed: the next sweep programs a fresh run
  // A changed key reaches the ports in the next sweep's PortInfo Sets; ports still protected by the old
  // key refuse them until their M_KeyLeasePeriod runs out (IBA 14.2.4.2), and the sweep says so.
  transport_.set_m_key(policy.security.m_key);
}

Discovered SweepRunner::rediscover(SmpBatch& batch, const std::vector<Lid>& changed_lids, SweepSummary& s) {
  // Trap issuers by LID, as the last sweep's records hold them (switch port 0, CA ports).
  std::vector<Guid> changed;
  std::string unknown;
  if (last_.topo) {
    for (Lid lid : changed_lids) {
      Guid found = 0;
      for (NodeIndex n = 0; n < last_.topo->size() && found == 0; ++n) {
        const Node& node = last_.topo->node(n);
        for (PortNum p = 0; p <= node.num_ports && found == 0; ++p) {
          if ((node.is_switch() && p != 0) || !last_.port_info_valid[n][p]) continue;
          if (mad::PortInfo::decode(last_.port_info[n][p]).lid == lid && lid != 0) found = node.guid;
        }
      }
      if (found == 0) unknown = "a trap came from LID " + std::to_string(lid) + ", which no known port holds";
      changed.push_back(found);
    }
  }
  IncrementalDiscovery inc;
  if (!last_.topo) {
    inc.full_sweep_because = "no previous sweep to start from";
  } else if (!unknown.empty()) {
    inc.full_sweep_because = unknown;
  } else {
    inc = rediscover_changed(batch, last_, changed);
  }
  if (inc.ok) {
    s.incremental = true;
    spdlog::info("sweep: incremental: {} switches re-read, {} cables lost, {} gained, {} nodes left",
                 inc.switches_reread, inc.cables_lost, inc.cables_gained, inc.nodes_lost);
    return std::move(inc.fabric);
  }
  s.full_discovery_because = inc.full_sweep_because;
  spdlog::info("sweep: full discovery instead of an incremental one: {}", inc.full_sweep_because);
  return discover_fabric(batch);
}

SweepSummary SweepRunner::heavy_sweep(const DiscoveryGate& gate, SweepScope scope,
                                      const std::vector<Lid>& changed_lids) {
  SweepSummary s;
  const auto t_start = Clock::now();
  const mad::TransportStats before = transport_.stats();
  SmpBatch batch(io_, transport_);
  std::vector<SweepProblem> problems;
  Discovered d;
  // keep: the next kFailed re-sweep may start from this sweep's fabric.
  auto finish = [&](bool keep) {
    const mad::TransportStats after = transport_.stats();
    s.smps_sent = after.sent - before.sent;
    s.retries = after.retries - before.retries;
    s.timeouts = after.timeouts - before.timeouts;
    s.problems = problems;
    s.total_ms = ms_since(t_start);
    last_ = keep ? std::move(d) : Discovered{};
    return s;
  };

  // Phase 1: heavy sweep (discovery), or a re-sweep of what the last one could not read.
  s.resumed = scope == SweepScope::kFailed && last_.topo && last_.topo->size() > 0;
  {
    PhaseTimer t(s, SweepPhase::kDiscovery,
                 s.resumed                       ? "re-sweep: unread attributes asked again"
                 : scope == SweepScope::kChanged ? "heavy sweep: changed switches re-read"
                                                 : "heavy sweep: fabric discovered");
    if (s.resumed) {
      s.gaps = discovery_gaps(last_);
      d = resume_discovery(batch, last_);
    } else if (scope == SweepScope::kChanged) {
      d = rediscover(batch, changed_lids, s);
    } else {
      d = discover_fabric(batch);
    }
    // Lost SMPs leave holes; fill them before anything is configured, so that a lost answer does not
    // become a node or a cable the routes leave out (and the next sweep puts back).
    for (unsigned round = 1; round <= policy_.sm.max_resweeps; ++round) {
      const std::size_t gaps = discovery_gaps(d);
      if (gaps == 0) break;
      spdlog::info("sweep: discovery round {}: asking again for {} unread attributes", round + 1, gaps);
      d = resume_discovery(batch, d);
      ++s.discovery_rounds;
    }
  }
  problems = d.problems;
  const Topology& topo = *d.topo;
  s.switches = topo.switches().size();
  s.cas = topo.cas().size();
  s.links = topo.link_count();
  spdlog::info("sweep: {} switches, {} CAs, {} links", s.switches, s.cas, s.links);
  if (topo.size() == 0) {
    problems.push_back({ProblemCode::kTimeout, 0, "0", "NodeInfo", "the SM's own node did not answer"});
    return finish(false);
  }
  if (gate && !gate(d)) {
    // Another SM is master. Remember the LIDs it gave out, so a takeover keeps every one of them.
    s.stopped_after_discovery = true;
    topo_ = d.topo;
    remember_port_lids(topo);
    return finish(false);
  }

  // Phase 2: LIDs (guid2lid file > LID on the port > lowest free).
  const std::string guid2lid_path = policy_.sm.state_dir + "/guid2lid";
  {
    PhaseTimer t(s, SweepPhase::kLids, "LIDs assigned");
    if (!guid2lid_loaded_) {
      auto loaded = read_guid2lid(guid2lid_path);
      if (loaded.ok()) {
        remembered_ = std::move(loaded->entries);
        for (const auto& msg : loaded->problems) spdlog::warn("guid2lid: {} (entry ignored)", msg);
      } else {
        spdlog::warn("guid2lid: {}", loaded.error().message);
      }
      guid2lid_loaded_ = true;
    }
    LidAssignOptions lid_opts;
    lid_opts.lmc = policy_.lid.lmc;
    auto lids = assign_lids(topo, remembered_, lid_opts);
    if (!lids.ok()) {
      problems.push_back({ProblemCode::kNoRoute, 0, "0", "LID assignment", lids.error().message});
      return finish(true);
    }
    lids_ = std::move(lids.value());
    s.lids = lids_.entries().size();
    merge_guid2lid(remembered_, to_guid2lid(topo, lids_));
    std::error_code ec;
    std::filesystem::create_directories(policy_.sm.state_dir, ec);
    if (auto st = write_guid2lid(guid2lid_path, remembered_); !st.ok()) {
      spdlog::error("guid2lid: {}", st.error().message);
    }
  }

  // Phase 3: routing (engine chain, every result verified before anything is written).
  {
    PhaseTimer t(s, SweepPhase::kRouting, "routing computed and verified");
    auto routed = route_with_chain(policy_.routing.engines, policy_.routing.options, topo, lids_);
    if (!routed.ok()) {
      problems.push_back({ProblemCode::kNoRoute, 0, "0", "routing", routed.error().message});
      return finish(true);
    }
    for (const ChainAttempt& a : routed->declined) {
      s.declined.push_back(a.engine + ": " + a.error.message);
      spdlog::info("routing: engine {} declined: {}", a.engine, a.error.message);
    }
    choose_tables(topo, std::move(routed->tables), s);
    s.engine = tables_.engine;
    write_ca_order(topo);
    if (tables_.adaptive) {
      if (auto st = write_ar_plan_file(policy_.sm.state_dir + "/ar-plan.json", topo, tables_); !st.ok()) {
        spdlog::error("ar-plan: {}", st.error().message);
      }
    }
    spdlog::info("routing: engine {} routed {} LIDs on {} switches", s.engine, lids_.max_lid(), s.switches);
  }

  // Phase 4: endports get LID, LMC, MasterSMLID, subnet prefix.
  PortConfigOptions port_opts;
  port_opts.subnet_prefix = policy_.sm.subnet_prefix;
  port_opts.sm_lid = lids_.base_lid(topo.sm_node, topo.sm_port);
  port_opts.m_key = policy_.security.m_key;
  port_opts.m_key_protect = static_cast<std::uint8_t>(policy_.security.m_key_protect);
  port_opts.m_key_lease_period_s = static_cast<std::uint16_t>(policy_.security.m_key_lease_period_s);
  {
    PhaseTimer t(s, SweepPhase::kEndports, "endports configured (LID, LMC, MasterSMLID)");
    s.port_sets += configure_endports(batch, d, lids_, port_opts, problems).sets;
  }

  // Phase 5: switches configured: LinearFDBTop and the LFT blocks that differ.
  {
    PhaseTimer t(s, SweepPhase::kSwitches, "switches configured (LFT blocks)");
    const ProgramCounts pc = programmer_.program(batch, d, tables_, problems);
    s.lft_blocks_written = pc.blocks_written;
    s.lft_blocks_skipped = pc.blocks_skipped;
  }

  // Phase 6 and 7: links armed, then active (ibsim, like real ports, needs both ends Armed first).
  {
    PhaseTimer t(s, SweepPhase::kLinksArmed, "links armed");
    s.port_sets += transition_links(batch, d, PortState::kInit, PortState::kArmed, problems).sets;
  }
  {
    PhaseTimer t(s, SweepPhase::kLinksActive, "links active");
    s.port_sets += transition_links(batch, d, PortState::kArmed, PortState::kActive, problems).sets;
  }

  {
    PhaseTimer t(s, SweepPhase::kPortStateChange, "PortStateChange cleared");
    clear_port_state_change(batch, d, problems);
  }

  // The RoCE plan goes to state_dir on the writer's thread: the fabric is already programmed and this
  // sweep does not wait for it.
  roce_writer_.submit(d.topo, policy_.sm.state_dir, policy_.roce);

  // Subnet up only when every link is Active and every switch holds its tables.
  for (SweepProblem& p : ports_not_active(d)) problems.push_back(std::move(p));
  for (NodeIndex sw : topo.switches()) {
    const Node& node = topo.node(sw);
    if (!programmer_.holds(node.guid, tables_.lft[sw])) {
      problems.push_back({ProblemCode::kNotTaken, node.guid, format_dr_path(node.dr_path), "LinearForwardingTable",
                          "switch does not hold its tables"});
    }
  }
  topo_ = d.topo;
  lids_frozen_ = std::make_shared<const LidMap>(lids_);
  tables_frozen_ = std::make_shared<const RoutingTables>(tables_);
  s.subnet_up = problems.empty();
  if (s.subnet_up) spdlog::info("sweep: SUBNET UP");
  return finish(true);
}

}  // namespace smd

namespace smd {

namespace {
constexpr std::string_view kRepairedSuffix = "+repair";
}  // namespace

void SweepRunner::choose_tables(const Topology& topo, RoutingTables fresh, SweepSummary& s) {
  const bool full = std::exchange(full_reroute_, false);
  const bool can_repair = !full && policy_.routing.repair == RepairMode::kMinimal && topo_ && tables_frozen_ &&
                          !topology_gained_links(*topo_, topo);
  if (!can_repair) {
    tables_ = std::move(fresh);
    return;
  }
  RepairStats rs;
  RoutingTables mixed = repair_tables(*topo_, *tables_frozen_, topo, lids_, fresh, rs);
  // Every route must deliver; deadlock freedom is required for the traffic CAs inject. A switch whose old
  // route died may need a detour with a down-up turn for its own (management) traffic: on a degraded fat
  // tree no up/down-legal route exists from it, and a fresh engine run would re-route everything instead.
  auto verified = verify_tables(topo, lids_, mixed, false);
  if (!verified.ok() || (fresh.deadlock_free && !verified->ca_deadlock_free)) {
    spdlog::warn("routing: minimal repair rejected ({}), programming the fresh tables",
                 verified.ok() ? "CA traffic would have a channel-dependency cycle" : verified.error().message);
    tables_ = std::move(fresh);
    return;
  }
  mixed.deadlock_free = fresh.deadlock_free && verified->deadlock_free;
  // Most routes are still the previous engine's: name it, marked as repaired once a route was.
  std::string engine = tables_frozen_->engine;
  if (rs.entries_repaired > 0 && !engine.ends_with(kRepairedSuffix)) engine += kRepairedSuffix;
  mixed.engine = engine;
  s.repair_entries = rs.entries_repaired;
  if (rs.lids_touched > 0) {
    spdlog::info("routing: minimal repair: {} LIDs had broken routes, {} (switch, LID) entries re-routed, {} kept",
                 rs.lids_touched, rs.entries_repaired, rs.entries_kept);
  }
  tables_ = std::move(mixed);
}

void SweepRunner::write_ca_order(const Topology& topo) {
  // Applications rank-order by this file: shift patterns in this order are what the engine optimised.
  if (tables_.ca_order.empty()) return;
  std::string text =
      "# CA order routing engine " + tables_.engine + " optimised for: index node-GUID port description\n";
  char line[96];
  for (std::size_t i = 0; i < tables_.ca_order.size(); ++i) {
    const Node& ca = topo.node(tables_.ca_order[i]);
    PortNum port = 1;
    while (port < ca.num_ports && !ca.ports[port].connected()) ++port;
    std::snprintf(line, sizeof line, "%zu 0x%016llx %u ", i, static_cast<unsigned long long>(ca.guid), port);
    text += line + ca.description + "\n";
  }
  if (auto st = write_file_atomic(policy_.sm.state_dir + "/ca-order", text); !st.ok()) {
    spdlog::error("ca-order: {}", st.error().message);
  }
}

void SweepRunner::remember_port_lids(const Topology& topo) {
  Guid2Lid found;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      const bool endport = node.is_switch() ? p == 0 : port.connected();
      if (!endport || port.lid == 0) continue;
      const Guid guid = port.guid ? port.guid : node.guid;
      const unsigned count = 1u << port.lmc;
      // Only what a master could have granted: unicast, LMC-aligned (a nonsense LID is not remembered).
      if (port.lid % count != 0 || port.lid + count - 1u > kMaxUnicastLid) continue;
      found[guid] = LidRange{port.lid, static_cast<Lid>(port.lid + count - 1)};
    }
  }
  merge_guid2lid(remembered_, found);
  std::error_code ec;
  std::filesystem::create_directories(policy_.sm.state_dir, ec);
  if (auto st = write_guid2lid(policy_.sm.state_dir + "/guid2lid", remembered_); !st.ok()) {
    spdlog::error("guid2lid: {}", st.error().message);
  }
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
