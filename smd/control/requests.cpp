#include "smd/control/requests.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "routing/model/enum_names.h"
#include "routing/model/hop_table.h"
#include "routing/model/lft_walk.h"
#include "smd/fabric/port_fields.h"

namespace smd::control {

std::string iso_time(std::chrono::system_clock::time_point tp) {
  const std::time_t t = std::chrono::system_clock::to_time_t(tp);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

/// A resolved route end: the node, the port that carries the LID, and the LID packets are sent to.
struct Endpoint {
  NodeIndex node = kNoNode;
  PortNum port = 0;
  Lid lid = 0;
};

Error bad_input(std::string message) { return make_error(ErrorCode::kInvalidInput, std::move(message)); }

// The LID the SM assigned (LidMap) or, before LIDs were assigned, the one discovery found on the port.
Lid port_lid(const FabricSnapshot& snap, NodeIndex n, PortNum p) {
  if (snap.lids) return snap.lids->base_lid(n, p);
  return snap.topo->node(n).ports[p].lid;
}

// A node's own address: a switch answers on port 0, a CA on its first port that has a LID.
Endpoint node_endpoint(const FabricSnapshot& snap, NodeIndex n) {
  const Node& node = snap.topo->node(n);
  if (node.is_switch()) return {n, 0, port_lid(snap, n, 0)};
  for (PortNum p = 1; p <= node.num_ports; ++p) {
    const Lid lid = port_lid(snap, n, p);
    if (lid != 0) return {n, p, lid};
  }
  // No LID anywhere: still route-able as a source through its first cabled port.
  for (PortNum p = 1; p <= node.num_ports; ++p) {
    if (node.ports[p].connected()) return {n, p, 0};
  }
  return {n, node.num_ports > 0 ? PortNum{1} : PortNum{0}, 0};
}

std::optional<Endpoint> endpoint_of_lid(const FabricSnapshot& snap, std::uint64_t value) {
  if (value == 0 || value > kMaxUnicastLid) return std::nullopt;
  const Lid lid = static_cast<Lid>(value);
  if (snap.lids) {
    if (auto owner = snap.lids->owner(lid)) return Endpoint{owner->node, owner->port, lid};
    return std::nullopt;
  }
  for (NodeIndex n = 0; n < snap.topo->size(); ++n) {
    const Node& node = snap.topo->node(n);
    for (PortNum p = 0; p < node.ports.size(); ++p) {
      const Port& port = node.ports[p];
      if (port.lid != 0 && lid >= port.lid && lid < port.lid + (1u << port.lmc)) return Endpoint{n, p, lid};
    }
  }
  return std::nullopt;
}

bool parse_number(std::string_view text, int base, std::uint64_t& out) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// `name` read as a node/port GUID or LID (0x... or decimal): nullopt when it is not a number, else the
// endpoint or the reason none matched.
std::optional<Result<Endpoint>> resolve_number(const FabricSnapshot& snap, std::string_view name) {
  const Topology& topo = *snap.topo;
  std::uint64_t value = 0;
  if (name.size() > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X') &&
      parse_number(name.substr(2), 16, value)) {
    // GUID 0 is no node's or port's (IBA 4.1.1): a CA's unused port 0 holds it in the model.
    if (value == 0) return bad_input("no node, port GUID or LID " + std::string(name));
    if (auto n = topo.find(value)) return node_endpoint(snap, *n);
    for (NodeIndex n = 0; n < topo.size(); ++n) {
      const Node& node = topo.node(n);
      for (PortNum p = 0; p < node.ports.size(); ++p) {
        if (node.ports[p].guid != value) continue;
        // Every port of a switch reports the port-0 GUID: the switch itself is meant.
        return node.is_switch() ? node_endpoint(snap, n) : Endpoint{n, p, port_lid(snap, n, p)};
      }
    }
    if (auto ep = endpoint_of_lid(snap, value)) return *ep;
    return bad_input("no node, port GUID or LID " + std::string(name));
  }
  if (parse_number(name, 10, value)) {
    if (auto ep = endpoint_of_lid(snap, value)) return *ep;
    return bad_input("no port holds LID " + std::string(name));
  }
  return std::nullopt;
}

Result<Endpoint> resolve_endpoint(const FabricSnapshot& snap, std::string_view name) {
  if (!snap.topo) return bad_input("no fabric discovered yet");
  const Topology& topo = *snap.topo;
  std::vector<NodeIndex> matches;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    if (snap.names.answers_to(topo.node(n), name)) matches.push_back(n);
  }
  // A map entry or a NodeDescription may itself read as a number ("17", "0x1a"): the text then names two
  // things, and guessing one would show or program the route of a node the operator did not mean.
  if (auto number = resolve_number(snap, name)) {
    if (matches.empty()) return *number;
    if (number->ok()) {
      if (matches.size() == 1 && matches.front() == number->value().node) return *number;
      return bad_input("'" + std::string(name) + "' is " + snap.names.describe(topo.node(number->value().node)) +
                       " as a GUID or LID, and the name of " + snap.names.describe(topo.node(matches.front())) +
                       (matches.size() > 1 ? " and " + std::to_string(matches.size() - 1) + " more" : "") +
                       "; use the node's GUID");
    }
    // No GUID or LID of this fabric: the name is meant.
  }
  if (matches.empty()) return bad_input("no node named '" + std::string(name) + "'");
  if (matches.size() > 1) {
    return bad_input("'" + std::string(name) + "' names " + std::to_string(matches.size()) +
                     " nodes; use a GUID or LID");
  }
  return node_endpoint(snap, matches.front());
}

const char* type_name(NodeType type) { return node_type_word(type, {"ca", "switch", "router", "?"}); }

std::string dest_name(const FabricSnapshot& snap, Lid lid) {
  if (!snap.lids) return "";
  const auto owner = snap.lids->owner(lid);
  if (!owner) return "";
  const Node& node = snap.topo->node(owner->node);
  const std::string& name = snap.names.of(node);
  return node.is_switch() ? name : name + "/" + std::to_string(owner->port);
}

Json lft_json(const FabricSnapshot& snap, NodeIndex n) {
  const Node& node = snap.topo->node(n);
  Json table = {{"guid", format_guid(node.guid)},
                {"name", snap.names.of(node)},
                {"description", node.description},
                {"lid", port_lid(snap, n, 0)},
                {"top", 0},
                {"entries", Json::array()}};
  if (!snap.tables || n >= snap.tables->lft.size()) return table;
  const Lft& lft = snap.tables->lft[n];
  table["top"] = lft.top();
  const auto& entries = lft.entries();
  for (std::size_t lid = 0; lid < entries.size(); ++lid) {
    if (entries[lid] == kNoPort) continue;
    table["entries"].push_back(
        {{"lid", lid}, {"port", entries[lid]}, {"dest", dest_name(snap, static_cast<Lid>(lid))}});
  }
  return table;
}

Json endpoint_json(const FabricSnapshot& snap, const Endpoint& ep) {
  const Node& node = snap.topo->node(ep.node);
  return {{"guid", format_guid(node.guid)},
          {"name", snap.names.of(node)},
          {"description", node.description},
          {"port", ep.port},
          {"lid", ep.lid}};
}

}  // namespace

Result<Json> export_json(const Json& request, const FabricSnapshot& snap) {
  const std::string what = request.value("what", "");
  if (what != "roce") return bad_input("unknown export '" + what + "' (known: roce)");
  const std::string& path = snap.roce_plan_path;
  if (path.empty()) return bad_input("roce export is off (policy roce.export: false)");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return bad_input("roce plan not available yet (" + path + " is written after the first routed sweep)");
  }
  // The handler runs on the daemon's only thread: a plan too big to parse quickly is pointed at, not sent.
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxExportBytes) {
    return make_error(ErrorCode::kInvalidInput, "roce plan " + path + " is " + std::to_string(size) + " bytes (limit " +
                                                    std::to_string(kMaxExportBytes) + "): read the file directly");
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return make_error(ErrorCode::kIo, "cannot read " + path);
  Json plan = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (plan.is_discarded()) plan = text.str();  // not JSON: hand the text over as it is
  return Json{{"what", "roce"}, {"path", path}, {"plan", std::move(plan)}};
}

Result<NodeIndex> resolve_node(const FabricSnapshot& snap, std::string_view name) {
  auto ep = resolve_endpoint(snap, name);
  if (!ep.ok()) return ep.error();
  return ep->node;
}

namespace {

/// status.election: the election's counters, the handover awaited, the other SMs.
Json election_json(const FabricSnapshot& snap) {
  Json others = Json::array();
  for (const SmPeer& sm : snap.other_sms) {
    others.push_back({{"guid", format_guid(sm.guid)}, {"priority", sm.priority}, {"state", sm.state}, {"lid", sm.lid}});
  }
  return {
      {"masters_seen", snap.masters_seen},
      {"awaiting_handover_from",
       snap.awaiting_handover_from ? Json(format_guid(snap.awaiting_handover_from)) : Json(nullptr)},
      {"elections", snap.counters.elections},
      {"handovers_sent", snap.counters.handovers_sent},
      {"handovers_received", snap.counters.handovers_received},
      {"two_masters", snap.counters.two_masters_found},
      {"is_sm_restored", snap.counters.is_sm_restored},
      {"sminfo_sets_refused", snap.counters.sminfo_sets_refused},
      {"other_sms", std::move(others)},
  };
}

/// status.history: the last sweeps and repairs, oldest first (SweepRecord::kHistory of them).
Json history_json(const FabricSnapshot& snap) {
  Json history = Json::array();
  for (const SweepHistoryEntry& e : snap.history) {
    history.push_back({{"time", iso_time(e.at)}, {"kind", e.kind}, {"ms", e.ms}, {"problems", e.problems}});
  }
  return history;
}

/// status.drained: the first kStatusDrainsListed of the operator's drains as the last sweep applied them.
Json drained_json(const FabricSnapshot& snap) {
  Json drained = Json::array();
  for (std::size_t i = 0; i < snap.drained.size() && i < kStatusDrainsListed; ++i) {
    const DrainedPartView& d = snap.drained[i];
    drained.push_back(
        {{"node_guid", format_guid(d.part.node_guid)}, {"port", d.part.port}, {"what", d.what}, {"forced", d.forced}});
  }
  return drained;
}

}  // namespace

Json status_json(const FabricSnapshot& snap) {
  const bool swept = snap.last_sweep_time != std::chrono::system_clock::time_point{};
  Json status = {
      {"state", snap.sm_state},
      {"priority", snap.priority},
      {"sm_guid", format_guid(snap.sm_port_guid)},
      {"sm_lid", snap.sm_lid},
      {"master_guid", format_guid(snap.master_port_guid)},
      {"master_lid", snap.master_lid},
      {"sweeps",
       {{"heavy", snap.counters.heavy_sweeps},
        {"light", snap.counters.light_sweeps},
        {"failed", snap.counters.failed_sweeps},
        {"incremental", snap.counters.incremental_sweeps},
        {"incremental_fallbacks", snap.counters.incremental_fallbacks},
        {"repairs", snap.counters.repairs}}},
      {"last_sweep",
       {{"time", swept ? Json(iso_time(snap.last_sweep_time)) : Json(nullptr)},
        {"subnet_up", snap.last_sweep.subnet_up},
        {"problems", snap.last_sweep.problems.size()},
        {"total_ms", snap.last_sweep.total_ms}}},
      {"last_repair_ms", snap.last_repair_ms},
      {"smps",
       {{"sent", snap.counters.smps_sent},
        {"retries", snap.counters.smp_retries},
        {"timeouts", snap.counters.smp_timeouts}}},
      {"engine", snap.tables ? snap.tables->engine : std::string()},
      {"fabric", {{"switches", 0}, {"cas", 0}, {"links", 0}, {"lids", 0}}},
  };
  if (snap.topo) {
    status["fabric"]["switches"] = snap.topo->switches().size();
    status["fabric"]["cas"] = snap.topo->cas().size();
    status["fabric"]["links"] = snap.topo->link_count();
  }
  if (snap.lids) status["fabric"]["lids"] = snap.lids->entries().size();
  status["policy"] = {{"generation", snap.policy_generation}, {"source", snap.policy_source}};
  status["policy"]["reloads_refused"] = snap.reloads_refused_total;
  if (!snap.reload_refused.empty()) {
    status["policy"]["reload_refused"] = {{"error", snap.reload_refused},
                                          {"since", iso_time(snap.reload_refused_since)}};
  }
  status["metrics"] = snap.metrics_address.empty() ? Json(nullptr) : Json(snap.metrics_address);
  status["log_level"] = snap.log_level;
  // `smctl sweeps off`: null while sweeps run as usual.
  status["sweeps_off"] = nullptr;
  if (snap.sweeps_off) {
    const SweepsOffView& off = *snap.sweeps_off;
    status["sweeps_off"] = {{"since", iso_time(off.since)},
                            {"by", off.by},
                            {"reason", off.reason},
                            {"held_back", off.deferred},
                            {"first_held_back", off.first_deferred}};
  }
  // `smctl drain`: the parts routes go around, and the cables the last routing phase took out for them.
  status["drained"] = drained_json(snap);
  status["drained_total"] = snap.drained.size();
  status["drained_forced"] =
      std::count_if(snap.drained.begin(), snap.drained.end(), [](const DrainedPartView& d) { return d.forced; });
  status["history"] = history_json(snap);
  status["drained_cables"] = snap.drained_cables;
  // smd --instance NAME: which of this host's SMs answered (null for the single SM).
  status["instance"] = snap.instance.empty() ? Json(nullptr) : Json(snap.instance);
  Json restart = Json::array();
  for (const RestartNeeded& k : snap.needs_restart) {
    restart.push_back({{"key", k.key}, {"running", k.running}, {"file", k.file}});
  }
  status["needs_restart"] = std::move(restart);
  status["election"] = election_json(snap);
  return status;
}

// The SM-owned PortInfo fields of port p of node n by IBA name (smd/fabric/port_fields.h); null when unknown.
Json port_fields_json(const FabricSnapshot& snap, NodeIndex n, PortNum p) {
  if (!snap.port_fields || n >= snap.port_fields->ports.size() || p >= snap.port_fields->ports[n].size() ||
      !snap.port_fields->ports[n][p]) {
    return nullptr;
  }
  Json out = Json::object();
  const PortFieldsView::Values& v = *snap.port_fields->ports[n][p];
  for (std::size_t f = 0; f < kPortFieldCount; ++f) out[std::string(port_field_name(static_cast<PortField>(f)))] = v[f];
  return out;
}

Json node_json(const FabricSnapshot& snap, NodeIndex n) {
  const Topology& topo = *snap.topo;
  const Node& node = topo.node(n);
  Json lids = Json::array();
  Json ports = Json::array();
  for (PortNum p = node.is_switch() ? 0 : 1; p < node.ports.size(); ++p) {
    const Lid lid = port_lid(snap, n, p);
    if (lid != 0) lids.push_back(lid);
    if (p == 0) continue;  // the management port has no cable
    const Port& port = node.ports[p];
    Json pj = {{"port", p}, {"state", to_string(port.state)}, {"peer", nullptr}};
    if (!node.is_switch()) pj["lid"] = lid;
    if (Json fields = port_fields_json(snap, n, p); !fields.is_null()) pj["fields"] = std::move(fields);
    if (port.connected()) {
      const Node& peer = topo.node(port.peer);
      pj["peer"] = {{"guid", format_guid(peer.guid)},
                    {"name", snap.names.of(peer)},
                    {"description", peer.description},
                    {"port", port.peer_port}};
    }
    ports.push_back(std::move(pj));
  }
  Json nj = {{"guid", format_guid(node.guid)}, {"type", type_name(node.type)},
             {"name", snap.names.of(node)},    {"description", node.description},
             {"lids", std::move(lids)},        {"dr_path", format_dr_path(node.dr_path)},
             {"ports", std::move(ports)}};
  // A switch's own port carries SubnetTimeOut and MasterSMSL; LifeTimeValue is its SwitchInfo's.
  if (node.is_switch()) {
    if (Json fields = port_fields_json(snap, n, 0); !fields.is_null()) nj["port0_fields"] = std::move(fields);
    if (snap.port_fields && n < snap.port_fields->life_time_value.size() && snap.port_fields->life_time_value[n]) {
      nj["life_time_value"] = *snap.port_fields->life_time_value[n];
    }
  }
  return nj;
}

Json nodes_json(const FabricSnapshot& snap) {
  Json nodes = Json::array();
  if (!snap.topo) return nodes;
  for (NodeIndex n = 0; n < snap.topo->size(); ++n) nodes.push_back(node_json(snap, n));
  return nodes;
}

Result<Json> lfts_json(const FabricSnapshot& snap, const std::string& switch_name) {
  if (!snap.topo) return bad_input("no fabric discovered yet");
  Json tables = Json::array();
  if (switch_name.empty()) {
    for (NodeIndex n : snap.topo->switches()) tables.push_back(lft_json(snap, n));
    return tables;
  }
  auto n = resolve_node(snap, switch_name);
  if (!n.ok()) return n.error();
  if (!snap.topo->node(*n).is_switch()) return bad_input("'" + switch_name + "' is not a switch");
  tables.push_back(lft_json(snap, *n));
  return tables;
}

Result<Json> route_json(const FabricSnapshot& snap, const std::string& src, const std::string& dst) {
  auto from = resolve_endpoint(snap, src);
  if (!from.ok()) return from.error().with_context("src");
  auto to = resolve_endpoint(snap, dst);
  if (!to.ok()) return to.error().with_context("dst");
  if (!snap.tables) return bad_input("no routing tables yet");
  if (to->lid == 0) return bad_input("dst '" + dst + "' has no LID");
  const Topology& topo = *snap.topo;
  auto fail = [&](const std::string& why) {
    return make_error(ErrorCode::kVerifyFailed, "route " + src + " -> " + dst + ": " + why);
  };
  auto route = [&](Json hops) -> Result<Json> {
    const std::size_t count = hops.size();
    return Json{{"src", endpoint_json(snap, *from)},
                {"dst", endpoint_json(snap, *to)},
                {"dlid", to->lid},
                {"hops", std::move(hops)},
                {"hop_count", count}};
  };

  // Injection: a CA sends over its cable; the LFTs decide from the first switch on.
  NodeIndex here = from->node;
  PortNum in_port = 0;
  if (!topo.node(here).is_switch()) {
    if (here == to->node) return route(Json::array());
    const Port& port = topo.node(here).ports[from->port];
    if (!port.connected()) return fail("source port " + std::to_string(from->port) + " has no cable");
    in_port = port.peer_port;
    here = port.peer;
    if (!topo.node(here).is_switch()) {  // two CAs cabled back to back: no switch, no LFT
      if (here != to->node) return fail("delivered to " + snap.names.of(topo.node(here)) + " instead");
      return route(Json::array());
    }
  }

  // The hop rule is routing/model/lft_walk.h's, as for the verifier and the quality report.
  const SwitchGraph graph = SwitchGraph::build(topo);
  const SwitchLfts lfts(graph, *snap.tables);
  const Lid dlid = to->lid;
  Json hops = Json::array();
  const LftWalkEnd end = walk_lft(
      graph, graph.index_of(here), port_target(topo, graph, to->node, to->port),
      [&](SwitchIndex s) { return lfts.out_port(s, dlid); },
      [&](SwitchIndex s, PortNum out) {
        const Node& node = topo.node(graph.node(s));
        Json hop = {{"switch", format_guid(node.guid)},
                    {"name", snap.names.of(node)},
                    {"description", node.description},
                    {"in_port", in_port},
                    {"out_port", out}};
        if (out != 0 && graph.peer_node(s, out) != kNoNode) {
          const Node& peer = topo.node(graph.peer_node(s, out));
          hop["peer"] = format_guid(peer.guid);
          hop["peer_name"] = snap.names.of(peer);
          hop["peer_description"] = peer.description;
          hop["peer_port"] = graph.peer_port(s, out);
          in_port = graph.peer_port(s, out);
        }
        hops.push_back(std::move(hop));
      });
  const std::string at = end.at == kNoSwitch ? std::string() : snap.names.of(topo.node(graph.node(end.at)));
  switch (end.how) {
    case LftHop::kDelivered: return route(std::move(hops));
    case LftHop::kPortZero: return fail(at + " claims LID " + std::to_string(dlid));
    case LftHop::kNoEntry:
    case LftHop::kBadPort: return fail(at + " has no route to LID " + std::to_string(dlid));
    case LftHop::kUncabled: return fail(at + " port " + std::to_string(end.port) + " has no cable");
    case LftHop::kWrongPort:
      return fail("delivered to " + snap.names.of(topo.node(graph.peer_node(end.at, end.port))) + " instead");
    case LftHop::kForward:
    case LftHop::kLoop: break;
  }
  return fail("forwarding loop");
}

Json report_json(const SweepSummary& s) {
  Json problems = Json::array();
  for (const SweepProblem& p : s.problems) problems.push_back(p.to_string());
  Json phases = Json::array();
  for (const PhaseTime& p : s.phases) phases.push_back({{"phase", p.phase}, {"ms", p.ms}});
  return {{"subnet_up", s.subnet_up},
          {"resumed", s.resumed},
          {"gaps", s.gaps},
          {"discovery_rounds", s.discovery_rounds},
          {"switches", s.switches},
          {"cas", s.cas},
          {"links", s.links},
          {"lids", s.lids},
          {"engine", s.engine},
          {"declined", s.declined},
          {"smps_sent", s.smps_sent},
          {"retries", s.retries},
          {"timeouts", s.timeouts},
          {"lft_blocks_written", s.lft_blocks_written},
          {"lft_blocks_skipped", s.lft_blocks_skipped},
          {"port_sets", s.port_sets},
          {"pkey_blocks_written", s.pkey_blocks_written},
          {"pkey_blocks_skipped", s.pkey_blocks_skipped},
          {"sl2vl_tables_written", s.sl2vl_tables_written},
          {"sl2vl_tables_skipped", s.sl2vl_tables_skipped},
          {"vlarb_blocks_written", s.vlarb_blocks_written},
          {"vlarb_blocks_skipped", s.vlarb_blocks_skipped},
          {"phases", std::move(phases)},
          {"problems", std::move(problems)},
          {"total_ms", s.total_ms}};
}

// `smctl sa`: what the SA served, its subscriptions and services.
Json sa_json(const SaStats* sa) {
  Json out = Json::object();
  out["enabled"] = sa != nullptr;
  if (!sa) return out;
  out["serving"] = sa->serving;
  Json answers = Json::array();
  for (const auto& [key, n] : sa->answers) {
    const auto& [attr, method, status] = key;
    answers.push_back({{"attribute", attr}, {"method", method}, {"status", status}, {"count", n}});
  }
  out["answers"] = answers;
  Json dropped = Json::object();
  for (const auto& [why, n] : sa->dropped) dropped[why] = n;
  out["dropped"] = dropped;
  out["subscriptions"] = sa->subscriptions;
  out["services"] = sa->services;
  out["mcast_groups"] = sa->mcast_groups;
  out["mcast_members"] = sa->mcast_members;
  out["mcast_joins"] = sa->mcast_joins;
  out["mcast_leaves"] = sa->mcast_leaves;
  out["queue_depth"] = sa->queue_depth;
  out["reports_sent"] = sa->reports_sent;
  out["reports_acknowledged"] = sa->reports_acknowledged;
  out["subscriptions_dropped"] = sa->subscriptions_dropped;
  Json services = Json::array();
  for (const SaServiceRow& r : sa->service_list) {
    services.push_back({{"name", r.name}, {"id", r.id}, {"gid", r.gid}, {"lease_s", r.lease_s}});
  }
  out["service_list"] = services;
  Json subs = Json::array();
  for (const SaSubscriptionRow& r : sa->subscription_list) {
    subs.push_back({{"id", r.id}, {"lid", r.lid}, {"trap", r.trap}, {"producer", r.producer}});
  }
  out["subscription_list"] = subs;
  out["latency_count"] = sa->latency.count;
  out["answered_inline"] = sa->answered_inline;
  out["latency_mean_us"] =
      sa->latency.count ? std::round(sa->latency.sum_us / static_cast<double>(sa->latency.count)) : 0.0;
  return out;
}

}  // namespace smd::control
