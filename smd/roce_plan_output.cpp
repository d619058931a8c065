#include "smd/roce_plan_output.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <unordered_map>

#include "routing/roce/frr_writer.h"
#include "routing/roce/svg_chart.h"
#include "routing/text_file.h"
#include "routing/topology.h"

namespace smd {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/// Write to `path` through a temporary file and a rename, so a reader never sees half a file. `fill`
/// streams the content (the plan JSON of a large fabric is 100+ MB: it never sits in memory whole).
Status write_file_with(const std::filesystem::path& path, const std::function<void(std::ostream&)>& fill) {
  const auto tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::out | std::ios::trunc | std::ios::binary);
    if (!f) return make_error(ErrorCode::kIo, tmp + ": cannot open for writing");
    fill(f);
    f.close();
    if (!f) return make_error(ErrorCode::kIo, tmp + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return make_error(ErrorCode::kIo, path.string() + ": rename failed: " + ec.message());
  return Ok{};
}

Status write_file(const std::filesystem::path& path, const std::string& text) {
  return write_file_with(path, [&](std::ostream& os) { os << text; });
}

nlohmann::ordered_json switch_json(const Topology& topo, const roce::RoutePlan& plan, SwitchIndex s) {
  using roce::format_ipv4;
  using roce::format_prefix;
  const auto& sw = plan.switches()[s];
  const auto& all = plan.switches();
  nlohmann::ordered_json j;
  j["name"] = sw.name;
  j["node_guid"] = format_guid(topo.node(sw.node).guid);
  j["asn"] = sw.asn;
  if (sw.tier == roce::kNoTier) {
    j["tier"] = nullptr;
  } else {
    j["tier"] = sw.tier;
  }
  j["loopback"] = format_ipv4(sw.loopback) + "/32";
  j["host_prefix"] = sw.has_hosts ? nlohmann::ordered_json(format_prefix(sw.host_prefix)) : nullptr;
  j["gateway"] = sw.has_hosts ? nlohmann::ordered_json(format_ipv4(sw.gateway)) : nullptr;
  auto interfaces = nlohmann::ordered_json::array();
  std::unordered_map<PortNum, std::uint32_t> peer_ip;
  for (const auto& itf : sw.interfaces) {
    peer_ip[itf.port] = itf.peer_ip;
    interfaces.push_back({{"port", itf.port},
                          {"ip", format_ipv4(itf.local_ip) + "/31"},
                          {"peer", all[itf.peer].name},
                          {"peer_port", itf.peer_port},
                          {"peer_ip", format_ipv4(itf.peer_ip)}});
  }
  j["interfaces"] = std::move(interfaces);
  auto routes = nlohmann::ordered_json::array();
  for (const auto& r : sw.routes) {
    auto hops = nlohmann::ordered_json::array();
    for (PortNum p : plan.fib().group(s, r.dest)) {
      hops.push_back(
          {{"port", p}, {"neighbor", all[plan.graph().peer_switch(s, p)].name}, {"ip", format_ipv4(peer_ip[p])}});
    }
    routes.push_back({{"prefix", format_prefix(r.prefix)},
                      {"kind", r.loopback ? "loopback" : "hosts"},
                      {"dest", all[r.dest].name},
                      {"nexthops", std::move(hops)}});
  }
  j["routes"] = std::move(routes);
  return j;
}

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

void write_plan_json(std::ostream& os, const Topology& topo, const roce::RoutePlan& plan) {
  nlohmann::ordered_json head;
  head["schema"] = "smd-roce-plan/1";
  head["address_pools"] = {{"hosts", roce::format_prefix(roce::kHostPool)},
                           {"links", roce::format_prefix(roce::kP2pPool)},
                           {"loopbacks", roce::format_prefix(roce::kLoopbackPool)}};
  head["asn_scheme"] = "4200000000 + tier * 100000 + group (docs/roce.md)";
  head["notes"] = plan.notes();
  // Open the top-level object by hand and stream the big arrays element by element.
  std::string opening = head.dump(1);
  opening.pop_back();  // drop the closing '}'
  while (!opening.empty() && (opening.back() == '\n' || opening.back() == ' ')) opening.pop_back();
  os << opening << ",\n \"hosts\": [";
  for (std::size_t i = 0; i < plan.hosts().size(); ++i) {
    const auto& h = plan.hosts()[i];
    const auto& leaf = plan.switches()[h.leaf];
    nlohmann::ordered_json j = {{"name", h.name},
                                {"node_guid", format_guid(topo.node(h.ca).guid)},
                                {"port", h.port},
                                {"ip", roce::format_ipv4(h.ip)},
                                {"prefix_len", leaf.host_prefix.len},
                                {"gateway", roce::format_ipv4(leaf.gateway)},
                                {"leaf", leaf.name},
                                {"leaf_port", h.leaf_port}};
    os << (i ? ",\n  " : "\n  ") << j.dump();
  }
  os << "\n ],\n \"switches\": [";
  for (SwitchIndex s = 0; s < plan.switches().size(); ++s) {
    os << (s ? ",\n  " : "\n  ") << switch_json(topo, plan, s).dump();
  }
  os << "\n ]\n}\n";
}

nlohmann::ordered_json comparison_json(const roce::Comparison& c) {
  nlohmann::ordered_json j;
  j["endpoints"] = c.endpoints;
  j["qps"] = c.qps;
  j["notes"] = c.notes;
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
      schemes.push_back(std::move(s));
    }
    patterns.push_back({{"name", p.name}, {"instances", p.instances}, {"schemes", std::move(schemes)}});
  }
  j["patterns"] = std::move(patterns);
  return j;
}

void print_comparison(std::ostream& out, const roce::Comparison& c) {
  out << "IB vs RoCE comparison: " << c.endpoints << " endpoints, " << c.qps << " QP(s) per flow\n";
  for (const auto& n : c.notes) out << "note: " << n << "\n";
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

Result<nlohmann::ordered_json> run_roce_plan(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                             const RocePlanOptions& o, std::ostream& out) {
  nlohmann::ordered_json summary;
  auto start = Clock::now();
  auto plan = roce::RoutePlan::build(topo);
  if (!plan) return plan.error().with_context("RoCE plan");
  summary["plan_ms"] = ms_since(start);
  summary["switches"] = plan->switches().size();
  summary["hosts"] = plan->hosts().size();

  if (!o.plan_json.empty()) {
    start = Clock::now();
    auto st = write_file_with(o.plan_json, [&](std::ostream& os) { write_plan_json(os, topo, *plan); });
    if (!st) return st.error();
    summary["plan_json"] = o.plan_json;
    summary["plan_json_ms"] = ms_since(start);
  }
  if (!o.frr_dir.empty()) {
    start = Clock::now();
    const auto names = roce::switch_dir_names(*plan);
    for (SwitchIndex s = 0; s < plan->switches().size(); ++s) {
      const std::filesystem::path dir = std::filesystem::path(o.frr_dir) / names[s];
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      if (ec) return make_error(ErrorCode::kIo, dir.string() + ": cannot create directory: " + ec.message());
      if (auto st = write_file(dir / "frr.conf", roce::frr_config(*plan, s, names[s])); !st) return st.error();
    }
    summary["frr_dir"] = o.frr_dir;
    summary["frr_files"] = plan->switches().size();
    summary["frr_ms"] = ms_since(start);
  }
  if (!o.compare && o.svg.empty()) return summary;

  roce::CompareOptions c;
  c.patterns.seeds = o.seeds;
  c.patterns.max_shifts = o.max_shifts;
  c.qps = o.qps;
  c.hash_seed = o.hash_seed;
  c.patterns.all_to_all = o.all_to_all;
  c.threads = o.threads;
  if (!o.pairs_file.empty()) {
    const auto endpoints = roce::compare_endpoints(topo, lids, tables, *plan);
    std::vector<std::uint32_t> endpoint_of_host(plan->hosts().size(), 0xFFFFFFFFu);
    for (std::uint32_t e = 0; e < endpoints.size(); ++e) {
      if (endpoints[e] < endpoint_of_host.size()) endpoint_of_host[endpoints[e]] = e;
    }
    auto pairs = read_pairs_file(o.pairs_file, *plan, endpoint_of_host);
    if (!pairs) return pairs.error();
    c.patterns.pairs = std::move(pairs).value();
  }
  start = Clock::now();
  auto cmp = roce::compare_schemes(topo, lids, tables, *plan, c);
  if (!cmp) return cmp.error().with_context("IB vs RoCE comparison");
  const double compare_ms = ms_since(start);
  if (!o.svg.empty()) {
    const std::string title = "IB (" + tables.engine + ") vs RoCEv2 ECMP: " + std::to_string(cmp->endpoints) +
                              " endpoints, " + std::to_string(cmp->qps) + " QP(s) per flow";
    if (auto st = write_file(o.svg, roce::svg_chart(*cmp, title)); !st) return st.error();
    summary["svg"] = o.svg;
  }
  summary["compare_ms"] = compare_ms;
  summary["comparison"] = comparison_json(*cmp);
  if (o.format != "json") {
    print_comparison(out, *cmp);
    char line[96];
    std::snprintf(line, sizeof line, "comparison took %.0f ms\n", compare_ms);
    out << line;
  }
  return summary;
}

}  // namespace smd
