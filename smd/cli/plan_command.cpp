#include "smd/cli/plan_command.h"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <unordered_set>

#include "config/netfile_file.h"
#include "config/policy.h"
#include "config/policy_loader.h"
#include "routing/base/safe_text.h"
#include "routing/chain/registry.h"
#include "routing/isolation/routed_topology.h"
#include "routing/lids/lid_assign.h"
#include "routing/model/components.h"
#include "routing/qos/sl2vl_plan.h"
#include "routing/quality/path_diversity.h"
#include "routing/quality/report.h"
#include "routing/verify/sl2vl_verify.h"
#include "routing/verify/verify.h"
#include "routing/whatif/drain_plan.h"
#include "routing/whatif/fabric_loss.h"
#include "smd/report/chain_attempts_output.h"
#include "smd/report/drain_report_output.h"
#include "smd/cli/layer_report.h"
#include "smd/cli/same_file.h"
#include "smd/dump/opensm_lfts.h"
#include "smd/state/ar_plan_json.h"
#include "smd/state/atomic_file.h"
#include "smd/state/guid2lid_file.h"
#include "smd/sweep/phase_timer.h"

namespace smd {
namespace {

using Clock = std::chrono::steady_clock;

/// Run `step`, adding its wall time in ms to `into` (a PlanTimings field); returns what the step returns.
template <class Step>
auto timed(double& into, Step&& step) {
  const auto start = Clock::now();
  auto result = step();
  into += ms_since(start);
  return result;
}

std::string hex(std::uint64_t v, int width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%0*llx", width, static_cast<unsigned long long>(v));
  return buf;
}

/// Wall time of each phase of one plan, in ms: where a large fabric's seconds go.
struct PlanTimings {
  double read = 0;       // policy, netfile, island check, caps
  double lids = 0;       // LID assignment
  double route = 0;      // the whole engine chain (every engine tried, its verification included)
  double quality = 0;    // compute_quality
  double diversity = 0;  // compute_path_diversity
  double outputs = 0;    // LFT dump, AR plan, QoS, RoCE plan and files
  double total = 0;
};

/// The chain's result: the winner's tables, its verifier report and the timings the planner prints.
using Routed = ChainResult;

/// The policy's engine chain (route_with_chain), with the check the sweep makes before it writes added to
/// verification: the SL2VL tables the policy and a VL-layered engine's layers give must keep every route on
/// its layer's VL at every hop.
Status check_sl2vl(const Policy& policy, const Topology& topo, const LidMap& lids, const RoutingTables& tables) {
  if (!tables.layering || (tables.layering->layers() <= 1 && !tables.layering->per_hop())) return Ok{};
  const Sl2VlPlan sl2vl(topo, policy.qos, tables.layering.get());
  return verify_sl2vl_layers(topo, lids, tables, sl2vl);
}

Result<Routed> route_timed(const Policy& policy, const Topology& topo, const LidMap& lids) {
  const auto sl2vl_check = [&](const RoutingTables& tables) { return check_sl2vl(policy, topo, lids, tables); };
  return route_with_chain(policy.routing.engines, policy.routing.options, topo, lids, sl2vl_check);
}

/// The --guid2lid file into `out`. Named on the command line, so unlike the daemon's own file it must exist
/// and parse whole: false after writing each problem to `err`.
bool read_plan_guid2lid(const std::string& path, Guid2LidLoad& out, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    err << "smd plan: cannot open guid2lid file " << path << ": No such file or directory\n";
    return false;
  }
  Result<Guid2LidLoad> load = read_guid2lid(path);
  if (!load.ok()) {
    err << "smd plan: " << printable_text(load.error().message) << "\n";
    return false;
  }
  for (const std::string& p : load->problems) err << "smd plan: " << printable_text(p) << "\n";
  if (!load->problems.empty()) return false;
  out = std::move(load).value();
  return true;
}

/// A guid2lid file whose port GUIDs the topology does not have (another fabric, or a netfile that numbers
/// ports otherwise) keeps none of those LIDs: say so, or the plan's LIDs silently differ from the fabric's.
void warn_unmatched_guid2lid(const Topology& topo, const Guid2Lid& remembered, const std::string& path,
                             std::ostream& err) {
  if (remembered.empty()) return;
  std::unordered_set<Guid> ports;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    for (const Port& p : topo.node(n).ports) {
      if (p.guid != 0) ports.insert(p.guid);
    }
  }
  std::size_t unmatched = 0;
  Guid first = 0;
  for (const auto& [guid, range] : remembered) {
    if (ports.contains(guid)) continue;
    if (unmatched++ == 0 || guid < first) first = guid;
  }
  if (unmatched == 0) return;
  err << "smd plan: warning: " << unmatched << " of " << remembered.size() << " entries of " << path
      << " name no port of the topology (lowest " << hex(first, 16) << "); their LIDs are not kept\n";
}

/// Directed-route SMPs carry at most 63 hops (IBA 14.2.2): a node farther from the SM than that is routed
/// by the plan but never reached, so never brought up, by the daemon. Counted by cables from the SM's node.
void warn_beyond_directed_routes(const Topology& topo, std::ostream& err) {
  constexpr std::size_t kMaxDrHops = 63;
  if (topo.sm_node == kNoNode) return;
  std::vector<std::size_t> hops(topo.size(), SIZE_MAX);
  std::vector<NodeIndex> queue{topo.sm_node};
  hops[topo.sm_node] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (const Port& p : topo.node(queue[head]).ports) {
      if (p.connected() && hops[p.peer] == SIZE_MAX) {
        hops[p.peer] = hops[queue[head]] + 1;
        queue.push_back(p.peer);
      }
    }
  }
  std::size_t beyond = 0;
  NodeIndex farthest = topo.sm_node;
  for (NodeIndex n : queue) {
    if (hops[n] > kMaxDrHops) ++beyond;
    if (hops[n] > hops[farthest]) farthest = n;
  }
  if (beyond == 0) return;
  err << "smd plan: warning: " << beyond << " node(s) more than " << kMaxDrHops
      << " cables from the SM, which directed-route SMPs cannot reach (the farthest, "
      << printable_text(describe_node(topo.node(farthest))) << ", at " << hops[farthest]
      << "): the daemon does not bring them up\n";
}

/// Directed paths from the SM's node to every node, breadth first over ports in increasing order: the ones a
/// discovery from that node finds when answers come back in order (a netfile carries none). Empty for nodes
/// out of reach; only switches forward (and the SM's own node, out of its SM port when it is a CA).
std::vector<std::vector<std::uint8_t>> planned_dr_paths(const Topology& topo) {
  std::vector<std::vector<std::uint8_t>> path(topo.size());
  std::vector<bool> seen(topo.size(), false);
  if (topo.sm_node >= topo.size()) return path;
  std::vector<NodeIndex> queue{topo.sm_node};
  seen[topo.sm_node] = true;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const NodeIndex at = queue[head];
    const Node& node = topo.node(at);
    if (!node.is_switch() && at != topo.sm_node) continue;
    for (const Port& p : node.ports) {
      if (p.num == 0 || !p.connected() || seen[p.peer]) continue;
      if (!node.is_switch() && p.num != topo.sm_port) continue;
      seen[p.peer] = true;
      path[p.peer] = path[at];
      path[p.peer].push_back(static_cast<std::uint8_t>(p.num));
      queue.push_back(p.peer);
    }
  }
  return path;
}

/// Appends the LFT dump's line of one entry, "0x%04x %u\n" as hex() and ostream would print it. The dump of a
/// 49k-LID subnet has 188 million such lines: formatted through snprintf and ostream they took 18 s of the
/// plan's 24.5; by hand, an eighth of that (bench/results/plan_49k.md).
void append_lft_line(std::string& out, std::size_t lid, unsigned port) {
  if (lid > 0xFFFF) {  // not a LID an Lft holds; printed as hex() would, however slowly
    out += hex(lid, 4) + ' ' + std::to_string(port) + '\n';
    return;
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  char line[16] = {
      '0', 'x', kDigits[(lid >> 12) & 15], kDigits[(lid >> 8) & 15], kDigits[(lid >> 4) & 15], kDigits[lid & 15], ' '};
  std::size_t len = 7;
  if (port >= 100) line[len++] = static_cast<char>('0' + port / 100);
  if (port >= 10) line[len++] = static_cast<char>('0' + port / 10 % 10);
  line[len++] = static_cast<char>('0' + port % 10);
  line[len++] = '\n';
  out.append(line, len);
}

/// Every switch's LFT as text: a "switch" header line, then "LID port" for every routed LID.
Status write_lft_dump(const std::string& path, const Topology& topo, const LidMap& lids, const RoutingTables& t) {
  const std::vector<std::vector<std::uint8_t>> dr = planned_dr_paths(topo);
  // Replaced whole (or left as it was); a FIFO, device or symlink at `path` is refused, not written into.
  return write_file_atomic_stream(path, [&](std::ostream& f) {
    f << "# smd LFT dump: engine " << t.engine << ", max LID " << hex(lids.max_lid(), 4) << "\n"
      << "# per switch: 'switch <node GUID> \"<description>\" DR <path> top <LinearFDBTop>', then '<LID> <port>'\n"
      << "# for every LID with a route (port 0 = the switch itself; LIDs without a route are left out)\n";
    std::string lines;  // one switch's entries, written at once
    for (NodeIndex n : topo.switches()) {
      const Node& node = topo.node(n);
      static const Lft kNone;
      const Lft& lft = n < t.lft.size() ? t.lft[n] : kNone;
      // Discovered topologies carry their paths; a netfile's are planned here.
      const std::vector<std::uint8_t>& route = node.dr_path.empty() ? dr[n] : node.dr_path;
      f << "switch " << hex(node.guid, 16) << " \"" << printable_text(node.description, true) << "\" DR "
        << format_dr_path(route) << " top " << hex(lft.top(), 4) << "\n";
      const auto& e = lft.entries();
      lines.clear();
      for (std::size_t lid = 1; lid < e.size(); ++lid) {
        if (e[lid] != kNoPort) append_lft_line(lines, lid, e[lid]);
      }
      f.write(lines.data(), static_cast<std::streamsize>(lines.size()));
    }
  });
}

nlohmann::ordered_json to_json(const PlanArgs& args, const Policy& policy, const Topology& topo, const LidMap& lids,
                               const Routed& r, const QualityReport& q, const PathDiversityReport& pd,
                               const PlanTimings& tm) {
  nlohmann::ordered_json j;
  j["topology"] = args.topology;
  j["policy"] = policy.source;
  j["engine"] = r.tables.engine;
  j["compute_ms"] = r.compute_ms;
  j["verify_ms"] = r.verify_ms;
  j["report_ms"] = tm.quality;
  j["timings_ms"] = {{"read", tm.read},       {"lids", tm.lids},           {"routing_chain", tm.route},
                     {"quality", tm.quality}, {"diversity", tm.diversity}, {"outputs", tm.outputs},
                     {"total", tm.total}};
  j["switches"] = topo.switches().size();
  j["cas"] = topo.cas().size();
  j["links"] = topo.link_count();
  j["max_lid"] = lids.max_lid();
  j["endpoints"] = q.endpoints;
  j["pairs"] = q.pairs;
  j["reachable_pairs"] = q.reachable_pairs;
  j["shift_max_load"] = q.shift_max_load;
  j["shift_mean_max_load"] = q.shift_mean_max_load;
  j["shift_worst_k"] = q.shift_worst_k;
  j["shifts_evaluated"] = q.shifts_evaluated;
  j["shifts_total"] = q.shifts_total;
  j["perm_max_load_mean"] = q.perm_max_load_mean;
  j["perm_max_load_max"] = q.perm_max_load_max;
  j["perm_seeds"] = q.perm_seeds;
  j["ebb"] = q.ebb;
  j["ebb_samples"] = q.ebb_samples;
  j["efi_max"] = q.efi_max;
  j["unreachable_flows"] = q.unreachable_flows;
  j["deadlock_free"] = r.verified.deadlock_free;
  j["ca_deadlock_free"] = r.verified.ca_deadlock_free;
  j["max_hops"] = r.verified.max_hops;
  j["mean_hops"] = r.verified.mean_hops;
  j["up_ports"] = r.verified.up_ports;
  j["up_port_lids_max"] = r.verified.up_port_lids_max;
  j["up_port_lids_min"] = r.verified.up_port_lids_min;
  j["up_port_lids_worst_spread"] = r.verified.up_port_lids_worst_spread;
  j["unroutable_lids"] = r.verified.unroutable_lids;
  add_layer_json(j, q);
  // Issue 4: LMC multipath and AR group figures (path_diversity.h).
  j["lids_per_port"] = pd.lids_per_port;
  j["path_diversity_min"] = pd.min_distinct;
  j["path_diversity_mean"] = pd.mean_distinct;
  j["path_diversity_full_share"] = pd.full_share;
  j["path_diversity_pairs_with_enough_paths"] = pd.pairs_with_enough_paths;
  auto sizes = nlohmann::ordered_json::object();
  for (std::size_t s = 1; s < pd.ar_group_sizes.size(); ++s) {
    if (pd.ar_group_sizes[s]) sizes[std::to_string(s)] = pd.ar_group_sizes[s];
  }
  j["ar_group_sizes"] = sizes;
  j["ar_groups"] = r.tables.adaptive ? r.tables.adaptive->groups.size() : 0;
  j["declined"] = declined_json(r.declined);
  if (!r.warning.empty()) j["warning"] = r.warning;
  if (!r.tables.notes.empty()) j["notes"] = r.tables.notes;
  return j;
}

void print_text(std::ostream& out, const PlanArgs& args, const Topology& topo, const LidMap& lids, const Routed& r,
                const QualityReport& q, const PathDiversityReport& pd, const PlanTimings& tm) {
  char line[256];
  out << "topology      " << args.topology << ": " << topo.switches().size() << " switches, " << topo.cas().size()
      << " CAs, " << topo.link_count() << " links, max LID " << hex(lids.max_lid(), 4) << "\n";
  print_declined(out, r.declined);
  if (!r.warning.empty()) out << "warning       " << r.warning << "\n";
  for (const std::string& note : r.tables.notes) out << "note          " << note << "\n";
  std::snprintf(line, sizeof line, "engine        %s (compute %.1f ms, verify %.1f ms, report %.1f ms)\n",
                r.tables.engine.c_str(), r.compute_ms, r.verify_ms, tm.quality);
  out << line;
  std::snprintf(line, sizeof line,
                "time          read %.0f ms, LIDs %.0f, routing chain %.0f, quality %.0f, path diversity %.0f, "
                "outputs %.0f; total %.0f ms\n",
                tm.read, tm.lids, tm.route, tm.quality, tm.diversity, tm.outputs, tm.total);
  out << line;
  std::snprintf(line, sizeof line, "reachable     %llu of %llu ordered CA pairs (%zu endpoints)\n",
                static_cast<unsigned long long>(q.reachable_pairs), static_cast<unsigned long long>(q.pairs),
                q.endpoints);
  out << line;
  std::snprintf(line, sizeof line, "hops          max %u, mean %.3f (cables CA to CA)\n", r.verified.max_hops,
                r.verified.mean_hops);
  out << line;
  std::snprintf(line, sizeof line, "shift         max load %u (worst k=%u), mean of max %.3f; %zu of %zu shifts\n",
                q.shift_max_load, q.shift_worst_k, q.shift_mean_max_load, q.shifts_evaluated, q.shifts_total);
  out << line;
  std::snprintf(line, sizeof line, "permutation   mean max load %.3f, worst %u (%u seeds)\n", q.perm_max_load_mean,
                q.perm_max_load_max, q.perm_seeds);
  out << line;
  std::snprintf(line, sizeof line, "eBB           %.4f (%u random bisections)\n", q.ebb, q.ebb_samples);
  out << line;
  std::snprintf(line, sizeof line, "EFI           %llu flows on the busiest switch-to-switch cable (all-to-all)\n",
                static_cast<unsigned long long>(q.efi_max));
  out << line;
  out << "deadlock-free " << (r.verified.deadlock_free ? "yes" : "no") << " (all routes), "
      << (r.verified.ca_deadlock_free ? "yes" : "no") << " (CA-injected traffic only)"
      << (r.verified.layered ? ", per VL layer" : "") << "\n";
  print_layer_text(out, q);
  std::snprintf(line, sizeof line,
                "up-ports      %zu; CA LIDs per up-port min %u max %u, worst spread in one switch %u\n",
                r.verified.up_ports, r.verified.up_port_lids_min, r.verified.up_port_lids_max,
                r.verified.up_port_lids_worst_spread);
  out << line;
  if (pd.lids_per_port > 1) {
    std::snprintf(line, sizeof line,
                  "LMC paths     %u LIDs per port: distinct paths per CA pair min %u, mean %.3f; %.4f of %llu pairs "
                  "with enough shortest paths use %u\n",
                  pd.lids_per_port, pd.min_distinct, pd.mean_distinct, pd.full_share,
                  static_cast<unsigned long long>(pd.pairs_with_enough_paths), pd.lids_per_port);
    out << line;
  }
  if (r.tables.adaptive) {
    out << "AR groups     " << r.tables.adaptive->groups.size() << " distinct; sizes over (switch, CA LID):";
    for (std::size_t s = 1; s < pd.ar_group_sizes.size(); ++s) {
      if (pd.ar_group_sizes[s]) out << " " << s << ":" << pd.ar_group_sizes[s];
    }
    out << "\n";
  }
  if (q.unreachable_flows || r.verified.unroutable_lids) {
    out << "warning       " << q.unreachable_flows << " pattern flows did not arrive; " << r.verified.unroutable_lids
        << " LIDs belong to ports not cabled to a switch\n";
  }
}

/// What one plan builds up, step by step; each step fills its part or stops the plan with an exit code.
struct PlanRun {
  Policy policy;
  std::optional<Topology> topo;
  std::optional<LidMap> lids;
  std::optional<Routed> routed;
  std::optional<QualityReport> quality;
  std::optional<PathDiversityReport> diversity;
  std::vector<std::string> qos_lines;  // what the sweep would log before it programs QoS
  nlohmann::ordered_json roce_json;
  std::ostringstream roce_text;
  PlanTimings tm;
};

/// Refuses output files that name one of the input files (`--opensm-lfts net.topo --topology net.topo`):
/// the output is replaced whole, so the input would be lost. Names are compared as the same file on disk
/// (std::filesystem::equivalent), so links and "./" spellings count; two outputs naming one file are
/// refused too. 0, or kPlanBadInput after saying which.
int refuse_outputs_over_inputs(const PlanArgs& args, std::ostream& err) {
  const std::pair<const char*, const std::string*> inputs[] = {{"--topology", &args.topology},
                                                               {"--config", &args.config},
                                                               {"--guid2lid", &args.guid2lid},
                                                               {"--pairs", &args.roce.pairs_file}};
  const std::pair<const char*, const std::string*> outputs[] = {
      {"--lft-dump", &args.lft_dump}, {"--opensm-lfts", &args.opensm_lfts},
      {"--ar-plan", &args.ar_plan},   {"--roce-plan", &args.roce.plan_json},
      {"--svg", &args.roce.svg},      {"--report", &args.roce.report}};
  // Two outputs naming one file: the later would replace the earlier (the files need not exist yet).
  for (std::size_t i = 0; i < std::size(outputs); ++i) {
    for (std::size_t k = i + 1; k < std::size(outputs); ++k) {
      if (!same_file(*outputs[i].second, *outputs[k].second)) continue;
      err << "smd plan: " << outputs[i].first << " and " << outputs[k].first << " name the same file "
          << *outputs[k].second << "; give each output its own file\n";
      return kPlanBadInput;
    }
  }
  for (const auto& [out_option, out_path] : outputs) {
    if (out_path->empty()) continue;
    auto same = [&](const std::string& in) { return same_file(*out_path, in); };
    for (const auto& [in_option, in_path] : inputs) {
      if (!same(*in_path)) continue;
      err << "smd plan: " << out_option << " " << *out_path << " is the " << in_option
          << " input file; writing it would replace the input (choose another output file)\n";
      return kPlanBadInput;
    }
    for (const std::string& job : args.roce.job_files) {
      if (!same(job)) continue;
      err << "smd plan: " << out_option << " " << *out_path
          << " is a --job input file; writing it would replace the input (choose another output file)\n";
      return kPlanBadInput;
    }
  }
  return 0;
}

/// The policy and the netfile, with the caps a netfile does not carry applied. 0, or kPlanBadInput after
/// saying why on `err`.
int read_inputs(const PlanArgs& args, PlanRun& run, std::ostream& err) {
  if (!args.config.empty()) {
    auto loaded = load_policy_file(args.config);
    if (!loaded) {
      err << "smd plan: " << printable_lines(loaded.error().message) << "\n";
      return kPlanBadInput;
    }
    run.policy = std::move(loaded).value();
  }
  if (args.adaptive || !args.ar_plan.empty()) run.policy.routing.options.adaptive = true;
  auto topo = read_netfile_file(args.topology);
  if (!topo) {
    err << "smd plan: " << printable_text(topo.error().message) << "\n";
    return kPlanBadInput;
  }
  // Islands cannot reach each other whatever the engine does; a report over them would describe a
  // fabric nobody has, so say which parts are cut off instead. A CA does not forward: two switch groups
  // joined only through a 2-port CA are two islands.
  if (const auto islands = forwarding_components(*topo); islands.size() > 1) {
    err << "smd plan: " << args.topology << ": the fabric falls apart into " << describe_islands(*topo, islands)
        << "; cable them together or plan each island from its own netfile\n";
    return kPlanBadInput;
  }
  // A netfile does not say what LFT size the switches have; the reader assumes ibsim's 30720 LIDs.
  // Planning for real switches (typically 48K LIDs) needs the real cap.
  if (args.linear_fdb_cap != 0) {
    for (NodeIndex s : topo->switches())
      topo->mutable_node(s).lft_cap = static_cast<std::uint16_t>(args.linear_fdb_cap);
  }
  if (args.vl_cap != 0) {
    for (NodeIndex n = 0; n < topo->size(); ++n) {
      for (Port& p : topo->mutable_node(n).ports) p.vl_cap = static_cast<std::uint8_t>(args.vl_cap);
    }
  }
  run.topo = std::move(topo).value();
  return 0;
}

/// LIDs as the daemon would assign them, keeping those of --guid2lid. 0, or kPlanBadInput.
int assign_plan_lids(const PlanArgs& args, PlanRun& run, std::ostream& err) {
  LidAssignOptions lid_options;
  lid_options.lmc = run.policy.lid.lmc;
  Guid2LidLoad load;
  if (!args.guid2lid.empty() && !read_plan_guid2lid(args.guid2lid, load, err)) return kPlanBadInput;
  const Guid2Lid& remembered = load.entries;
  warn_unmatched_guid2lid(*run.topo, remembered, args.guid2lid, err);
  for (const std::string& w : guid2lid_above_lft_cap(load, args.guid2lid, *run.topo)) {
    err << "smd plan: warning: " << printable_text(w) << "\n";
  }
  warn_beyond_directed_routes(*run.topo, err);
  auto lids = assign_lids(*run.topo, remembered, lid_options);
  if (!lids) {
    err << "smd plan: " << args.topology << ": LID assignment: " << printable_text(lids.error().message) << "\n";
    return kPlanBadInput;
  }
  run.lids = std::move(lids).value();
  return 0;
}

/// The files asked for (--lft-dump, --opensm-lfts, --ar-plan), each replaced whole. 0, or kPlanWriteFailed.
int write_table_files(const PlanArgs& args, const PlanRun& run, std::ostream& err) {
  const RoutingTables& tables = run.routed->tables;
  Status st = Ok{};
  std::string where;
  if (!args.lft_dump.empty()) st = write_lft_dump(args.lft_dump, *run.topo, *run.lids, tables);
  if (st && !args.opensm_lfts.empty()) {
    st = write_file_atomic_stream(args.opensm_lfts,
                                  [&](std::ostream& f) { dump::write_opensm_lfts(f, *run.topo, *run.lids, tables); });
  }
  if (st && !args.ar_plan.empty()) {
    where = args.ar_plan + ": ";
    st = write_ar_plan_file(args.ar_plan, *run.topo, tables);
  }
  if (st) return 0;
  err << "smd plan: " << where << printable_text(st.error().message) << "\n";
  return kPlanWriteFailed;
}

/// What the sweep logs before it programs QoS: the layers overriding the policy's SL2VL, and SLs that some
/// port type maps past the VLs its ports operate.
std::vector<std::string> qos_warnings(const Policy& policy, const Topology& topo, const RoutingTables& tables) {
  std::vector<std::string> lines;
  if (!policy.qos.enabled) return lines;
  const Sl2VlPlan sl2vl(topo, policy.qos, tables.layering.get());
  lines = sl2vl.warnings();
  for (std::string& line : summarize_problems(sl2vl.problems())) lines.push_back(std::move(line));
  return lines;
}

/// The routing-quality report and the path diversity of the winner's tables. 0, or kPlanRoutingFailed.
int measure(const PlanArgs& args, PlanRun& run, std::ostream& err) {
  QualityOptions q_options;
  q_options.perm_seeds = args.seeds;
  q_options.ebb_samples = args.seeds;
  q_options.max_shifts = args.max_shifts;
  auto quality = timed(run.tm.quality, [&] {
    return compute_quality(*run.topo, *run.lids, run.routed->tables, q_options, &run.routed->verified);
  });
  if (!quality) {
    err << "smd plan: " << args.topology << ": quality report: " << printable_text(quality.error().message) << "\n";
    return kPlanRoutingFailed;
  }
  run.quality = std::move(quality).value();
  auto diversity = timed(run.tm.diversity, [&] {
    return compute_path_diversity(*run.topo, *run.lids, run.routed->tables, 0, &*run.quality);
  });
  if (!diversity) {
    err << "smd plan: " << args.topology << ": path diversity: " << printable_text(diversity.error().message) << "\n";
    return kPlanRoutingFailed;
  }
  run.diversity = std::move(diversity).value();
  return 0;
}

/// The RoCEv2 plan, comparison and files when asked for. 0, kPlanWriteFailed (a file) or kPlanBadInput.
int plan_roce(const PlanArgs& args, PlanRun& run, std::ostream& err) {
  if (!args.roce.requested()) return 0;
  RocePlanOptions roce = args.roce;
  roce.format = args.format;
  roce.seeds = args.seeds;
  std::optional<FabricLoss> loss;
  if (!args.roce.fail.empty()) {
    RerouteOptions reroute;
    reroute.chain = run.policy.routing.engines;
    reroute.routing = run.policy.routing.options;
    reroute.extra_check = [&policy = run.policy](const Topology& after, const LidMap& lids, const RoutingTables& t) {
      return check_sl2vl(policy, after, lids, t);
    };
    reroute.minimal_repair = run.policy.routing.repair == RepairMode::kMinimal;
    auto lost = lose_parts(*run.topo, *run.lids, run.routed->tables, args.roce.fail, "--fail", reroute);
    if (!lost) {
      err << "smd plan: " << printable_text(lost.error().message) << "\n";
      return lost.error().code == ErrorCode::kInvalidInput ? kPlanBadInput : kPlanRoutingFailed;
    }
    loss = std::move(lost).value();
  }
  auto done = run_roce_plan(*run.topo, *run.lids, run.routed->tables, roce, run.roce_text, loss ? &*loss : nullptr);
  if (!done) {
    err << "smd plan: " << args.topology << ": " << printable_text(done.error().message) << "\n";
    return done.error().code == ErrorCode::kIo ? kPlanWriteFailed : kPlanBadInput;
  }
  run.roce_json = std::move(done).value();
  return 0;
}

/// The report on `out`, as JSON or text.
void print_report(const PlanArgs& args, const PlanRun& run, std::ostream& out) {
  if (args.format == "json") {
    auto j = to_json(args, run.policy, *run.topo, *run.lids, *run.routed, *run.quality, *run.diversity, run.tm);
    j["qos"] = {{"enabled", run.policy.qos.enabled}, {"warnings", run.qos_lines}};
    if (args.roce.requested()) j["roce"] = run.roce_json;
    out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return;
  }
  print_text(out, args, *run.topo, *run.lids, *run.routed, *run.quality, *run.diversity, run.tm);
  for (const std::string& line : run.qos_lines) out << "qos warning   " << line << "\n";
  out << run.roce_text.str();
}

/// The exit code of --drain: 5 when CA pairs would be cut off, whatever else failed (a maintenance script
/// must not read a write failure as "the drain is safe"), else `write_rc` (0 or kPlanWriteFailed). Each
/// failure gets its line on `err`; the write's was printed by write_table_files.
int drain_exit_code(std::uint64_t lost_pairs, std::uint64_t cut_off, int write_rc, std::ostream& err) {
  if (lost_pairs == 0) return write_rc;
  err << "smd plan: the drain would cut off " << lost_pairs << " ordered CA pairs (" << cut_off
      << " CA ports lose every path)";
  if (write_rc != 0) err << "; the files above were not written either (exit 5 wins over 4)";
  err << "\n";
  return kPlanDrainCutsOff;
}

/// --drain: the what-if on the routed plan (routing/whatif), its report, and the exit code a script acts on.
int plan_drain(const PlanArgs& args, PlanRun& run, Clock::time_point started, std::ostream& out, std::ostream& err) {
  if (args.roce.requested()) {
    err << "smd plan: --drain reports on InfiniBand routing only: leave out --roce-plan, --frr-dir, --compare, "
           "--svg, --report, --pairs, --collectives, --job, --placement, --jobs-at-once and --fail\n";
    return kPlanBadInput;
  }
  auto parts = resolve_drain_parts(*run.topo, args.drain);
  if (Status distinct = parts ? distinct_drain_parts(*parts) : Status(parts.error()); !distinct) {
    err << "smd plan: " << printable_text(distinct.error().message) << "\n";
    return kPlanBadInput;
  }
  DrainOptions options;
  options.chain = run.policy.routing.engines;
  options.routing = run.policy.routing.options;
  options.extra_check = [&policy = run.policy, &lids = *run.lids](const Topology& drained, const RoutingTables& t) {
    return check_sl2vl(policy, drained, lids, t);
  };
  options.quality.perm_seeds = args.seeds;
  options.quality.ebb_samples = 0;  // the drain report shows max loads; eBB would only cost time
  options.quality.max_shifts = args.max_shifts;
  options.partitions = &run.policy.partitions;
  options.verified_before = &run.routed->verified;
  options.minimal_repair = run.policy.routing.repair == RepairMode::kMinimal;
  DrainTimings tm{run.tm.read, run.tm.lids, run.tm.route, 0, 0};
  auto report =
      timed(tm.what_if, [&] { return what_if_drain(*run.topo, *run.lids, run.routed->tables, *parts, options); });
  if (!report) {
    err << "smd plan: " << args.topology << ": " << printable_text(report.error().message) << "\n";
    // No engine routes the drained fabric (dnup declines one whose CAs all lost their switch). If the drain
    // also cuts CA pairs off, that is what a script must not miss, as when an engine does route it: exit 5
    // whatever the chain, never 3 with one chain and 5 with another.
    std::size_t cables = 0;
    const Topology drained = drained_topology(*run.topo, *parts, cables);
    if (const auto pair = first_separated_pair(*run.topo, drained)) {
      const auto end = [&](const CableEnd& e) {
        return printable_text(describe_node(run.topo->node(e.node))) + " port " + std::to_string(e.port);
      };
      err << "smd plan: the drain would cut off " << end(pair->first) << " and " << end(pair->second)
          << " from each other (every path lost), and no engine routes what is left (exit 5 wins over 3)\n";
      return kPlanDrainCutsOff;
    }
    return kPlanRoutingFailed;
  }
  // The files asked for hold the tables after the drain, on the whole fabric's DR paths (links stay up).
  // A file that cannot be written still leaves the report to print and the cut-off pairs to say: both
  // failures are on stderr, and the exit code is the cut-off's (smd.8 says why).
  const std::string engine_before = run.routed->tables.engine;
  run.routed->tables = std::move(report->tables_after);
  const int write_rc = write_table_files(args, run, err);
  tm.total = ms_since(started);
  if (args.format == "json") {
    const auto j = drain_report_json(*run.topo, engine_before, *report, tm);
    out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  } else {
    print_drain_report(out, *run.topo, engine_before, *report, tm);
  }
  return drain_exit_code(report->lost_pairs, report->cut_off, write_rc, err);
}

}  // namespace

// The steps in the order the daemon's sweep takes them, each timed for the report.
int run_plan(const PlanArgs& args, std::ostream& out, std::ostream& err) {
  const auto started = Clock::now();
  PlanRun run;
  if (const int rc = refuse_outputs_over_inputs(args, err)) return rc;
  if (const int rc = timed(run.tm.read, [&] { return read_inputs(args, run, err); })) return rc;
  if (const int rc = timed(run.tm.lids, [&] { return assign_plan_lids(args, run, err); })) return rc;
  auto routed = timed(run.tm.route, [&] { return route_timed(run.policy, *run.topo, *run.lids); });
  if (!routed) {
    err << "smd plan: " << args.topology << ": " << printable_text(routed.error().message) << "\n";
    return kPlanRoutingFailed;
  }
  run.routed = std::move(routed).value();
  if (!args.drain.empty()) return plan_drain(args, run, started, out, err);
  if (const int rc = timed(run.tm.outputs, [&] { return write_table_files(args, run, err); })) return rc;
  run.qos_lines = timed(run.tm.outputs, [&] { return qos_warnings(run.policy, *run.topo, run.routed->tables); });
  if (const int rc = measure(args, run, err)) return rc;
  if (const int rc = timed(run.tm.outputs, [&] { return plan_roce(args, run, err); })) return rc;
  run.tm.total = ms_since(started);
  print_report(args, run, out);
  return 0;
}

/// An output file option given an empty name (`--report ''`, a shell variable left unset) would write
/// nothing and exit 0 as if it had: a usage error instead (exit 2, like other bad arguments).
const CLI::Validator kOutputName(
    [](std::string& name) { return name.empty() ? std::string("an empty file name writes nothing; name a file") : std::string(); },
    "FILE");

void add_plan_command(CLI::App& app) {
  // CLI11 binds options to storage that must outlive parsing; the callback owns it with the subcommand.
  auto args = std::make_shared<PlanArgs>();
  CLI::App* cmd = app.add_subcommand("plan", "Route a netfile offline and print the routing-quality report");
  cmd->add_option("--topology", args->topology, "ibsim netfile or ibnetdiscover output")->required();
  cmd->add_option("--config", args->config, "policy YAML (routing.engines, lid.lmc, ...); default: built-in");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--seeds", args->seeds, "random permutations and random bisections to evaluate")
      ->check(CLI::Range(1u, 100000u));
  cmd->add_option("--linear-fdb-cap", args->linear_fdb_cap,
                  "LinearFDBCap of every switch (LFT entries); 0 = the netfile reader's ibsim default 30720")
      ->check(CLI::Range(0u, 49152u));
  cmd->add_option("--max-shifts", args->max_shifts, "shift patterns evaluated at most, evenly spread (0 = all)");
  cmd->add_option("--lft-dump", args->lft_dump, "write every switch's LFT to this file")->check(kOutputName);
  cmd->add_option("--opensm-lfts", args->opensm_lfts,
                  "write every switch's LFT to this file in OpenSM's opensm-lfts.dump format")
      ->check(kOutputName);
  cmd->add_option(
      "--guid2lid", args->guid2lid,
      "keep the LIDs of this guid2lid file (the daemon's state_dir/guid2lid): plan the LIDs the fabric has");
  cmd->add_flag("--adaptive", args->adaptive, "compute adaptive-routing groups (forces routing.adaptive on)");
  cmd->add_option("--ar-plan", args->ar_plan,
                  "write the adaptive-routing plan as JSON to this file (implies --adaptive)")
      ->check(kOutputName);
  cmd->add_option("--vl-cap", args->vl_cap,
                  "VLCap of every port (1 = VL0, 2 = VL0-1, 3 = VL0-3, 4 = VL0-7, 5 = VL0-14); 0 = unknown")
      ->check(CLI::Range(0u, 5u));
  cmd->add_option("--drain", args->drain,
                  "what-if: take this switch (GUID or name) or cable (GUID/PORT or NAME[PORT]) out of routing and "
                  "report what is lost (repeatable; exit 5 when CA pairs lose every path)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--roce-plan", args->roce.plan_json, "write the RoCEv2 L3 Clos route plan as JSON (docs/roce.md)")
      ->check(kOutputName);
  cmd->add_option("--frr-dir", args->roce.frr_dir, "write one FRR config per switch as DIR/<switch>/frr.conf")
      ->check(kOutputName);
  cmd->add_flag("--compare", args->roce.compare,
                "compare ib-static, ib-adaptive, roce-ecmp, roce-eecmp and roce-spray on the same flows");
  cmd->add_option("--svg", args->roce.svg, "write the comparison chart as SVG (implies --compare)")->check(kOutputName);
  cmd->add_option("--report", args->roce.report,
                  "write the comparison as one self-contained HTML page: collectives chart, findings, fabric "
                  "sketch with the hottest cables (implies --compare)")
      ->check(kOutputName);
  cmd->add_option("--pairs", args->roce.pairs_file, "extra comparison pattern: 'SRC DST' per line (host or IP)");
  cmd->add_option("--qps", args->roce.qps,
                  "QPs per flow for ib-adaptive (default 1) and per connection for roce-eecmp (default 4)")
      ->check(CLI::Range(1u, 64u));
  cmd->add_option("--collectives", args->roce.collectives,
                  "AI collectives timed by --compare: ring,tree,allgather,reducescatter,alltoall,moe:G,pipeline "
                  "or none alone ('' is none too; default: all, moe:8); implies --compare")
      ->each([args](const std::string&) { args->roce.collectives_given = true; });
  cmd->add_option("--job", args->roce.job_files,
                  "a job for the collectives: one endpoint per line (port GUID, LID or CA name); repeatable; "
                  "implies --compare")
      ->allow_extra_args(false);
  cmd->add_option("--placement", args->roce.placements,
                  "a generated job: contiguous:N, fragmented:N,FILL[,across] or random:N,SEED; repeatable; "
                  "implies --compare")
      ->allow_extra_args(false);
  cmd->add_option("--fail", args->roce.fail,
                  "compare also after this switch (GUID or name) or cable (GUID/PORT or NAME[PORT]) fails: IB "
                  "static as the daemon repairs, AR and BGP around the loss (repeatable; implies --compare)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_flag("--jobs-at-once", args->roce.jobs_at_once,
                "run the --job/--placement jobs at once, sharing the fabric (same rank count each)");
  cmd->callback([args] {
    const int code = run_plan(*args, std::cout, std::cerr);
    if (code != 0) throw CLI::RuntimeError(code);
  });
}

}  // namespace smd
