#include "smd/sweep.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "routing/registry.h"
#include "smd/ar_plan_json.h"
#include "smd/atomic_file.h"
#include "smd/guid2lid_file.h"
#include "smd/light_sweep.h"
#include "smd/port_config.h"
#include "smd/roce_state_writer.h"
#include "smd/smp_batch.h"

namespace smd {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// Times a phase into the summary and logs it in the field's words.
class PhaseTimer {
 public:
  PhaseTimer(SweepSummary& s, std::string name) : s_(s), name_(std::move(name)), t0_(Clock::now()) {}
  ~PhaseTimer() {
    const double ms = ms_since(t0_);
    s_.phases.push_back({name_, ms});
    spdlog::info("sweep: {} ({:.1f} ms)", name_, ms);
  }

 private:
  SweepSummary& s_;
  std::string name_;
  Clock::time_point t0_;
};

}  // namespace

SweepRunner::SweepRunner(boost::asio::io_context& io, mad::SmpTransport& transport, const Policy& policy)
    : io_(io), transport_(transport), policy_(policy) {}

SweepSummary SweepRunner::heavy_sweep(const DiscoveryGate& gate) {
  SweepSummary s;
  const auto t_start = Clock::now();
  const mad::TransportStats before = transport_.stats();
  SmpBatch batch(io_, transport_);
  std::vector<SweepProblem> problems;
  auto finish = [&]() {
    const mad::TransportStats after = transport_.stats();
    s.smps_sent = after.sent - before.sent;
    s.retries = after.retries - before.retries;
    s.timeouts = after.timeouts - before.timeouts;
    for (const SweepProblem& p : problems) s.problems.push_back(p.to_string());
    s.total_ms = ms_since(t_start);
    return s;
  };

  // Phase 1: heavy sweep (discovery).
  Discovered d;
  {
    PhaseTimer t(s, "heavy sweep: fabric discovered");
    d = discover_fabric(batch);
  }
  problems = d.problems;
  const Topology& topo = *d.topo;
  s.switches = topo.switches().size();
  s.cas = topo.cas().size();
  s.links = topo.link_count();
  spdlog::info("sweep: {} switches, {} CAs, {} links", s.switches, s.cas, s.links);
  if (topo.size() == 0) {
    problems.push_back({0, "0", "NodeInfo", "the SM's own node did not answer"});
    return finish();
  }
  if (gate && !gate(d)) {
    // Another SM is master. Remember the LIDs it gave out, so a takeover keeps every one of them.
    s.stopped_after_discovery = true;
    topo_ = d.topo;
    remember_port_lids(topo);
    return finish();
  }

  // Phase 2: LIDs (guid2lid file > LID on the port > lowest free).
  const std::string guid2lid_path = policy_.sm.state_dir + "/guid2lid";
  {
    PhaseTimer t(s, "LIDs assigned");
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
      problems.push_back({0, "0", "LID assignment", lids.error().message});
      return finish();
    }
    lids_ = std::move(lids.value());
    s.lids = lids_.entries().size();
    for (const auto& [guid, range] : to_guid2lid(topo, lids_)) remembered_[guid] = range;
    std::error_code ec;
    std::filesystem::create_directories(policy_.sm.state_dir, ec);
    if (auto st = write_guid2lid(guid2lid_path, remembered_); !st.ok()) {
      spdlog::error("guid2lid: {}", st.error().message);
    }
  }

  // Phase 3: routing (engine chain, every result verified before anything is written).
  {
    PhaseTimer t(s, "routing computed and verified");
    auto routed = route_with_chain(policy_.routing.engines, policy_.routing.options, topo, lids_);
    if (!routed.ok()) {
      problems.push_back({0, "0", "routing", routed.error().message});
      return finish();
    }
    for (const ChainAttempt& a : routed->declined) {
      s.declined.push_back(a.engine + ": " + a.error.message);
      spdlog::info("routing: engine {} declined: {}", a.engine, a.error.message);
    }
    tables_ = std::move(routed->tables);
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
  {
    PhaseTimer t(s, "endports configured (LID, LMC, MasterSMLID)");
    s.port_sets += configure_endports(batch, d, lids_, port_opts, problems).sets;
  }

  // Phase 5: switches configured: LinearFDBTop and the LFT blocks that differ.
  {
    PhaseTimer t(s, "switches configured (LFT blocks)");
    const ProgramCounts pc = programmer_.program(batch, d, tables_, problems);
    s.lft_blocks_written = pc.blocks_written;
    s.lft_blocks_skipped = pc.blocks_skipped;
  }

  // Phase 6 and 7: links armed, then active (ibsim, like real ports, needs both ends Armed first).
  {
    PhaseTimer t(s, "links armed");
    s.port_sets += transition_links(batch, d, PortState::kInit, PortState::kArmed, problems).sets;
  }
  {
    PhaseTimer t(s, "links active");
    s.port_sets += transition_links(batch, d, PortState::kArmed, PortState::kActive, problems).sets;
  }

  {
    PhaseTimer t(s, "PortStateChange cleared");
    clear_port_state_change(batch, d, problems);
  }

  // The RoCE plan goes to state_dir on the writer's thread: the fabric is already programmed and this
  // sweep does not wait for it.
  roce_writer_.submit(d.topo, policy_.sm.state_dir, policy_.roce);

  // Subnet up only when every link is Active and every switch holds its tables.
  const auto not_active = ports_not_active(d);
  for (const auto& p : not_active) problems.push_back({0, "-", "PortState", p + " is not Active"});
  unsigned tables_missing = 0;
  for (NodeIndex sw : topo.switches()) {
    if (!programmer_.holds(topo.node(sw).guid, tables_.lft[sw])) {
      ++tables_missing;
      spdlog::debug("switch {} does not hold its LFT", format_guid(topo.node(sw).guid));
    }
  }
  if (tables_missing) {
    problems.push_back(
        {0, "-", "LinearForwardingTable", std::to_string(tables_missing) + " switches do not hold their tables"});
  }
  topo_ = d.topo;
  lids_frozen_ = std::make_shared<const LidMap>(lids_);
  tables_frozen_ = std::make_shared<const RoutingTables>(tables_);
  s.subnet_up = problems.empty();
  if (s.subnet_up) spdlog::info("sweep: SUBNET UP");
  return finish();
}

}  // namespace smd

namespace smd {

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
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = 0; p <= node.num_ports; ++p) {
      const Port& port = node.ports[p];
      const bool endport = node.is_switch() ? p == 0 : port.connected();
      if (!endport || port.lid == 0) continue;
      const Guid guid = port.guid ? port.guid : node.guid;
      remembered_[guid] = LidRange{port.lid, static_cast<Lid>(port.lid + (1u << port.lmc) - 1)};
    }
  }
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
  const LightSweepResult r = light_sweep(batch, *topo_);
  reason = r.reason;
  return r.change;
}

}  // namespace smd
