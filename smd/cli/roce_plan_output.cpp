#include "smd/cli/roce_plan_output.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "config/text_file.h"
#include "routing/model/topology.h"
#include "routing/roce/svg_chart.h"
#include "routing/roce/svg_stack.h"
#include "smd/cli/collectives_output.h"
#include "smd/cli/comparison_report.h"
#include "smd/cli/job_file.h"
#include "smd/cli/loss_comparison_output.h"
#include "smd/state/atomic_file.h"
#include "smd/state/roce_plan_files.h"
#include "smd/sweep/phase_timer.h"

namespace smd {
namespace {

using Clock = std::chrono::steady_clock;

void text_row(std::ostream& out, const std::string& pattern, const roce::SchemeFigures& f) {
  char line[256];
  std::snprintf(line, sizeof line, "%-12s %-12s %9.2f %9.2f %9.2f %10.4f %10.4f %10.4f %9llu\n", pattern.c_str(),
                f.name.c_str(), f.max_link_load, f.mean_max_link_load, f.max_switch_link_load, f.mean_bottleneck_share,
                f.maxmin_throughput, f.collision_share, static_cast<unsigned long long>(f.unrouted));
  out << line;
}

bool parse_ipv4(const std::string& s, std::uint32_t& ip) {
  unsigned a, b, c, d;
  char tail;
  if (std::sscanf(s.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) != 4) return false;
  if (a > 255 || b > 255 || c > 255 || d > 255) return false;
  ip = (a << 24) | (b << 16) | (c << 8) | d;
  return true;
}

}  // namespace

nlohmann::ordered_json comparison_json(const roce::Comparison& c) {
  nlohmann::ordered_json j;
  j["endpoints"] = c.endpoints;
  j["qps"] = c.qps;
  j["eecmp_qps"] = c.eecmp_qps;
  j["notes"] = c.notes;
  j["collectives"] = collectives_json(c.collectives);
  auto patterns = nlohmann::ordered_json::array();
  for (const auto& p : c.patterns) {
    auto schemes = nlohmann::ordered_json::array();
    for (const auto& f : p.schemes) {
      nlohmann::ordered_json s;
      s["name"] = f.name;
      if (!f.note.empty()) s["note"] = f.note;
      s["max_link_load"] = f.max_link_load;
      s["mean_max_link_load"] = f.mean_max_link_load;
      s["max_switch_link_load"] = f.max_switch_link_load;
      s["mean_bottleneck_share"] = f.mean_bottleneck_share;
      s["maxmin_throughput"] = f.maxmin_throughput;
      s["collision_share"] = f.collision_share;
      s["flows"] = f.flows;
      s["unrouted"] = f.unrouted;
      s["hottest_cables"] = hot_cables_json(f.hottest_cables);
      s["cables_at_max_load"] = f.cables_at_max_load;
      schemes.push_back(std::move(s));
    }
    patterns.push_back({{"name", p.name}, {"instances", p.instances}, {"schemes", std::move(schemes)}});
  }
  j["patterns"] = std::move(patterns);
  return j;
}

void print_comparison(std::ostream& out, const roce::Comparison& c) {
  out << "IB vs RoCE comparison: " << c.endpoints << " endpoints, " << c.qps << " QP(s) per flow (ib-adaptive), "
      << c.eecmp_qps << " per connection (roce-eecmp)\n";
  for (const auto& n : c.notes) out << "note: " << n << "\n";
  print_collectives(out, c.collectives);
  char header[256];
  std::snprintf(header, sizeof header, "%-12s %-12s %9s %9s %9s %10s %10s %10s %9s\n", "pattern", "scheme", "max-load",
                "mean-max", "max-sw", "eBB-share", "maxmin", "collision", "unrouted");
  out << header;
  for (const auto& p : c.patterns) {
    for (const auto& f : p.schemes) text_row(out, p.name, f);
  }
}

namespace {
constexpr std::size_t kMaxPairsBytes = 64u << 20;  // ~40 bytes a pair: over a million pairs
}  // namespace

Result<std::vector<roce::FlowPair>> read_pairs_file(const std::string& path, const roce::RoutePlan& plan,
                                                    const std::vector<std::uint32_t>& endpoint_of_host) {
  // A regular file below a cap: `--pairs /dev/zero` (or a FIFO) must fail, not read forever.
  auto text = read_regular_file(path, kMaxPairsBytes, "pairs file");
  if (!text) return make_error(ErrorCode::kInvalidInput, text.error().message);  // an input problem: exit 2
  std::istringstream f(std::move(text).value());
  std::unordered_map<std::string, std::uint32_t> by_name;
  std::unordered_map<std::uint32_t, std::uint32_t> by_ip;
  for (std::uint32_t h = 0; h < plan.hosts().size(); ++h) {
    by_name.emplace(plan.hosts()[h].name, h);  // keeps the first port of a multi-port CA
    by_ip.emplace(plan.hosts()[h].ip, h);
  }
  auto resolve = [&](const std::string& token, std::uint32_t& endpoint) {
    std::uint32_t ip = 0;
    std::uint32_t host = 0xFFFFFFFFu;
    if (parse_ipv4(token, ip)) {
      if (auto it = by_ip.find(ip); it != by_ip.end()) host = it->second;
    } else if (auto it = by_name.find(token); it != by_name.end()) {
      host = it->second;
    }
    if (host >= endpoint_of_host.size() || endpoint_of_host[host] == 0xFFFFFFFFu) return false;
    endpoint = endpoint_of_host[host];
    return true;
  };
  std::vector<roce::FlowPair> pairs;
  std::string line;
  for (unsigned number = 1; std::getline(f, line); ++number) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string a, b, extra;
    if (!(words >> a)) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    if (!(words >> b) || (words >> extra)) {
      return make_error(ErrorCode::kInvalidInput, where + "expected 'SRC DST' (host name or IPv4 address)");
    }
    roce::FlowPair p;
    if (!resolve(a, p.src)) return make_error(ErrorCode::kInvalidInput, where + "unknown host '" + a + "'");
    if (!resolve(b, p.dst)) return make_error(ErrorCode::kInvalidInput, where + "unknown host '" + b + "'");
    if (p.src == p.dst) return make_error(ErrorCode::kInvalidInput, where + "a host cannot send to itself");
    pairs.push_back(p);
  }
  if (pairs.empty()) return make_error(ErrorCode::kInvalidInput, path + ": no pairs");
  return pairs;
}

namespace {

/// The ranks of a --placement on a multi-HCA fabric: the placement in units of hosts (N ranks = N / R
/// whole hosts, a host's leaf is its rail-0 HCA's), each host's HCAs in rail order.
Result<std::vector<std::uint32_t>> place_hosts(const roce::PlacementSpec& spec, const roce::RailLayout& rails,
                                               const std::vector<SwitchIndex>& leaves) {
  if (spec.ranks % rails.rails != 0) {
    return make_error(ErrorCode::kInvalidInput, std::to_string(spec.ranks) + " ranks are not whole hosts of " +
                                                    std::to_string(rails.rails) + " HCAs");
  }
  roce::PlacementSpec hosts_spec = spec;
  hosts_spec.ranks = spec.ranks / rails.rails;
  auto hosts = roce::place_job(hosts_spec, roce::host_leaves(rails, leaves));
  if (!hosts) return hosts.error();
  return roce::host_ranks(rails, *hosts);
}

/// The jobs of --job and --placement: files first, then placements, each in the order given.
Result<std::vector<roce::Job>> make_jobs(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                         const RocePlanOptions& o, const std::optional<roce::RailLayout>& rails) {
  std::vector<roce::Job> jobs;
  if (o.job_files.empty() && o.placements.empty()) return jobs;
  const auto endpoints = job_endpoints(topo, lids, tables);
  for (const auto& path : o.job_files) {
    auto job = read_job_file(path, endpoints, rails ? &*rails : nullptr);
    if (!job) return job.error();
    jobs.push_back(std::move(job).value());
  }
  const auto leaves = roce::compare_endpoint_leaves(topo, lids, tables);
  for (const auto& text : o.placements) {
    auto spec = roce::parse_placement(text);
    if (!spec) return spec.error();
    auto ranks = rails ? place_hosts(*spec, *rails, leaves) : roce::place_job(*spec, leaves);
    if (!ranks) return ranks.error().with_context("--placement '" + text + "'");
    jobs.push_back(roce::Job{text, std::move(ranks).value()});
  }
  return jobs;
}

/// --plan-json and --frr-dir: the plan's files, each timed into `summary`.
Status write_plan_outputs(const RocePlanOptions& o, const Topology& topo, const roce::RoutePlan& plan,
                          nlohmann::ordered_json& summary) {
  if (!o.plan_json.empty()) {
    const auto start = Clock::now();
    if (auto st = write_plan_file(o.plan_json, topo, plan); !st) return st.error();
    summary["plan_json"] = o.plan_json;
    summary["plan_json_ms"] = ms_since(start);
  }
  if (!o.frr_dir.empty()) {
    const auto start = Clock::now();
    if (auto st = write_frr_configs(o.frr_dir, plan); !st) return st.error();
    summary["frr_dir"] = o.frr_dir;
    summary["frr_files"] = plan.switches().size();
    summary["frr_ms"] = ms_since(start);
  }
  return Ok{};
}

/// The comparison's options from the command line: patterns, collectives, the --pairs file, the rails of a
/// multi-HCA fabric (why not one goes to `summary`) and the jobs.
Result<roce::CompareOptions> compare_options(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                             const roce::RoutePlan& plan, const RocePlanOptions& o,
                                             nlohmann::ordered_json& summary) {
  roce::CompareOptions c;
  c.patterns.seeds = o.seeds;
  c.patterns.max_shifts = o.max_shifts;
  c.qps = o.qps;
  c.hash_seed = o.hash_seed;
  c.patterns.all_to_all = o.all_to_all;
  c.threads = o.threads;
  auto collectives = roce::parse_collectives(o.collectives);
  if (!collectives) return collectives.error();
  c.collectives = std::move(collectives).value();
  if (!o.pairs_file.empty()) {
    const auto endpoints = roce::compare_endpoints(topo, lids, tables, plan);
    std::vector<std::uint32_t> endpoint_of_host(plan.hosts().size(), 0xFFFFFFFFu);
    for (std::uint32_t e = 0; e < endpoints.size(); ++e) {
      if (endpoints[e] < endpoint_of_host.size()) endpoint_of_host[endpoints[e]] = e;
    }
    auto pairs = read_pairs_file(o.pairs_file, plan, endpoint_of_host);
    if (!pairs) return pairs.error();
    c.patterns.pairs = std::move(pairs).value();
  }
  c.jobs_at_once = o.jobs_at_once;
  auto rails = roce::compare_rail_layout(topo, lids, tables);
  c.rails = std::move(rails.layout);
  if (!rails.why_not.empty()) summary["multi_hca"] = "not a multi-HCA fabric: " + rails.why_not;
  if (auto jobs = make_jobs(topo, lids, tables, o, c.rails); jobs) {
    c.jobs = std::move(jobs).value();
  } else {
    return jobs.error();
  }
  return c;
}

/// The chart of every figure (the --svg file and the report's details): one chart, or the charts before and
/// after the loss stacked.
Result<std::string> comparison_svg(const RoutingTables& tables, const roce::LossComparison& lc,
                                   const FabricLoss* loss) {
  const roce::Comparison& before = lc.before;
  const std::string title = "IB (" + tables.engine + ") vs RoCEv2: " + std::to_string(before.endpoints) +
                            " endpoints, " + std::to_string(before.qps) + " QP(s) per flow (ib-adaptive), " +
                            std::to_string(before.eecmp_qps) + " per connection (roce-eecmp)";
  if (!loss) return roce::svg_chart(before, title);
  const std::string charts[] = {roce::svg_chart(before, title + ", before the loss"),
                                roce::svg_chart(lc.after, "after losing " + failed_parts_text(*loss) + " (IB: " +
                                                              loss->routed.made_by + ", RoCE: BGP converged)")};
  auto stacked = roce::svg_stack(charts);
  if (!stacked) return stacked.error().with_context("--svg");
  return stacked;
}

/// The --report page: the figures of `summary` (comparison, after_loss) with the charts and the text.
Status write_comparison_report(const std::string& path, const RoutingTables& tables, const roce::LossComparison& lc,
                               const roce::RoutePlan& plan, const roce::RoutePlan* after_plan, const FabricLoss* loss,
                               const std::string& svg, const nlohmann::ordered_json& summary,
                               const std::string& collectives_asked) {
  ComparisonReportInput report;
  report.collectives_asked = collectives_asked;
  report.title = "IB (" + tables.engine + ") vs RoCEv2 on " + std::to_string(lc.before.endpoints) + " endpoints" +
                 (loss ? ", before and after losing " + failed_parts_text(*loss) : std::string());
  report.before = &lc.before;
  report.plan = &plan;
  if (loss) {
    report.after = &lc.after;
    report.after_plan = after_plan;
    report.loss_text = failed_parts_text(*loss);
    report.ib_tables_after = loss->routed.made_by;
  }
  report.details_svg = svg;
  report.json["comparison"] = summary["comparison"];
  if (loss) report.json["after_loss"] = summary["after_loss"];
  return write_file_atomic(path, comparison_report_html(report));
}

}  // namespace

Result<nlohmann::ordered_json> run_roce_plan(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                             const RocePlanOptions& o, std::ostream& out, const FabricLoss* loss) {
  nlohmann::ordered_json summary;
  auto start = Clock::now();
  auto plan = roce::RoutePlan::build(topo);
  if (!plan) return plan.error().with_context("RoCE plan");
  summary["plan_ms"] = ms_since(start);
  summary["switches"] = plan->switches().size();
  summary["hosts"] = plan->hosts().size();

  if (auto st = write_plan_outputs(o, topo, *plan, summary); !st) return st.error();
  if (o.jobs_at_once && o.job_files.empty() && o.placements.empty()) {
    return make_error(ErrorCode::kInvalidInput, "--jobs-at-once: no jobs to run at once (give --job or --placement)");
  }
  if (!o.compare && o.svg.empty() && o.report.empty() && o.job_files.empty() && o.placements.empty() &&
      !o.collectives_given && !loss) {
    return summary;
  }

  auto options = compare_options(topo, lids, tables, *plan, o, summary);
  if (!options) return options.error();
  const roce::CompareOptions& c = *options;
  start = Clock::now();
  std::optional<roce::LossComparison> lc;
  std::optional<roce::RoutePlan> after_plan;
  if (loss) {
    auto reduced = plan->after_loss(loss->topo);
    if (!reduced) return reduced.error();
    after_plan = std::move(reduced).value();
    const roce::FabricAfterLoss after{&loss->topo, &loss->routed.tables, &*after_plan};
    auto both = roce::compare_before_after(topo, lids, tables, *plan, after, c);
    if (!both) return both.error().with_context("IB vs RoCE comparison");
    lc = std::move(both).value();
  } else {
    auto cmp = roce::compare_schemes(topo, lids, tables, *plan, c);
    if (!cmp) return cmp.error().with_context("IB vs RoCE comparison");
    lc.emplace().before = std::move(cmp).value();
  }
  const roce::Comparison& before = lc->before;
  const double compare_ms = ms_since(start);
  std::string svg;  // the chart of every figure: the --svg file and the report's details
  if (!o.svg.empty() || !o.report.empty()) {
    auto chart = comparison_svg(tables, *lc, loss);
    if (!chart) return chart.error();
    svg = std::move(chart).value();
  }
  if (!o.svg.empty()) {
    if (auto st = write_file_atomic(o.svg, svg); !st) return st.error();
    summary["svg"] = o.svg;
  }
  summary["compare_ms"] = compare_ms;
  summary["comparison"] = comparison_json(before);
  if (loss) summary["after_loss"] = loss_json(topo, *loss, *lc);
  if (!o.report.empty()) {
    if (auto st = write_comparison_report(o.report, tables, *lc, *plan, after_plan ? &*after_plan : nullptr, loss, svg,
                                          summary, o.collectives);
        !st) {
      return st.error();
    }
    summary["report"] = o.report;
  }
  if (o.format != "json") {
    print_comparison(out, before);
    if (loss) print_loss_comparison(out, *loss, *lc);
    char line[96];
    std::snprintf(line, sizeof line, "comparison took %.0f ms\n", compare_ms);
    out << line;
  }
  return summary;
}

}  // namespace smd
