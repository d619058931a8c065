#include "smd/control/health_requests.h"

#include <charconv>
#include <cmath>

#include "smd/control/requests.h"

namespace smd::control {

namespace {

Json counter_map(const CounterArray& values) {
  Json out = Json::object();
  for (std::size_t i = 0; i < kPortCounterCount; ++i) out[kPortCounterInfo[i].iba_name] = values[i];
  return out;
}

Json data_map(const DataArray& values) {
  return {{"xmit_bytes", values[0]}, {"rcv_bytes", values[1]}, {"xmit_pkts", values[2]}, {"rcv_pkts", values[3]}};
}

Json port_row(const PortCounterRow& r) {
  Json saturated = Json::array();
  for (std::size_t i = 0; i < kPortCounterCount; ++i) {
    if ((r.saturated >> i) & 1u) saturated.push_back(kPortCounterInfo[i].iba_name);
  }
  return {{"node_guid", format_guid(r.key.node_guid)},
          {"node_desc", r.node_desc},
          {"port", r.key.port},
          {"lid", r.lid},
          {"peer", r.peer},
          {"extended", r.extended},
          {"counters", counter_map(r.raw)},
          {"delta", counter_map(r.last_delta)},
          {"total", counter_map(r.total)},
          {"data", data_map(r.data_total)},
          {"rate", data_map(r.data_rate)},
          {"saturated", saturated},
          {"resets", r.resets},
          {"errors", r.errors_in_last_interval()},
          {"read_at", iso_time(r.read_at)}};
}

}  // namespace

Result<Json> counters_json(const FabricSnapshot& snap, const std::string& node, bool errors_only) {
  if (!snap.perf) {
    return make_error(ErrorCode::kInvalidInput,
                      "the PerfMgr is not running: it reads counters only as MASTER with "
                      "perfmgr.enabled true (this SM is " +
                          snap.sm_state + ")");
  }
  const PerfView& v = *snap.perf;
  Guid only = 0;
  if (!node.empty()) {
    auto n = resolve_node(snap, node);
    if (!n.ok()) return n.error();
    only = snap.topo->node(*n).guid;
  }
  Json ports = Json::array();
  for (const PortCounterRow& r : v.ports) {
    if (only != 0 && r.key.node_guid != only) continue;
    if (errors_only && !r.errors_in_last_interval()) continue;
    ports.push_back(port_row(r));
  }
  const PerfPassStats& p = v.last_pass;
  Json last = {{"mads", p.mads_sent},
               {"timeouts", p.timeouts},
               {"errors", p.errors},
               {"resets", p.resets},
               {"ports", p.ports},
               {"unreachable", p.unreachable},
               {"wall_ms", std::round(p.wall_ms * 10) / 10},
               {"cpu_ms", std::round(p.cpu_ms * 10) / 10},
               {"paused_ms", std::round(p.paused_ms * 10) / 10}};
  if (v.passes > 0) last["end"] = iso_time(v.last_pass_end);
  // `smctl perfmgr clear`: how often, and the last time (null: never), so totals read from then on.
  const Json cleared_at = v.clears > 0 ? Json(iso_time(v.cleared_at)) : Json(nullptr);
  return Json{{"enabled", true},   {"passes", v.passes}, {"interval_s", v.interval_s},
              {"last_pass", last}, {"clears", v.clears}, {"cleared_at", cleared_at},
              {"ports", ports}};
}

Json ports_json(const FabricSnapshot& snap, bool unhealthy_only) {
  Json ports = Json::array();
  unsigned isolated = 0;
  for (const UnhealthyPortView& u : snap.unhealthy) isolated += u.isolated ? 1 : 0;
  auto unhealthy_of = [&](const PortKey& k) -> const UnhealthyPortView* {
    for (const UnhealthyPortView& u : snap.unhealthy) {
      if (u.key == k) return &u;
    }
    return nullptr;
  };
  auto add_mark = [](Json& row, const UnhealthyPortView& u) {
    row["unhealthy"] = true;
    row["reason"] = u.reason;
    row["isolated"] = u.isolated;
    row["kept_reason"] = u.kept_reason;
    row["flaps"] = u.flaps;
    row["since"] = iso_time(u.since);
    if (u.babbling) {
      row["babbling"] = true;
      row["disabled_end"] = u.disabled_end;
    }
  };
  if (unhealthy_only || !snap.topo) {
    for (const UnhealthyPortView& u : snap.unhealthy) {
      Json row = {{"node_guid", format_guid(u.key.node_guid)},
                  {"node_desc", u.node_desc},
                  {"port", u.key.port},
                  {"dr_path", u.dr_path},
                  {"peer", u.peer}};
      add_mark(row, u);
      ports.push_back(std::move(row));
    }
  } else {
    const Topology& topo = *snap.topo;
    for (const Node& n : topo.nodes()) {
      for (PortNum p = 1; p <= n.num_ports; ++p) {
        const Port& port = n.ports[p];
        if (!port.connected()) continue;
        Json row = {{"node_guid", format_guid(n.guid)},
                    {"node_desc", snap.names.of(n)},
                    {"port", p},
                    {"dr_path", format_dr_path(n.dr_path)},
                    {"peer", snap.names.port(topo.node(port.peer), port.peer_port)},
                    {"unhealthy", false}};
        if (const UnhealthyPortView* u = unhealthy_of({n.guid, p})) add_mark(row, *u);
        ports.push_back(std::move(row));
      }
    }
  }
  return {{"ports", ports}, {"unhealthy", snap.unhealthy.size()}, {"isolated", isolated}};
}

Result<Json> port_clear(DaemonControl& control, const FabricSnapshot& snap, const std::string& node, std::int64_t port,
                        const std::string& requester) {
  const std::string by = "smctl port clear" + (requester.empty() ? std::string() : " by " + requester);
  auto n = resolve_node(snap, node);
  if (!n.ok()) {
    // A marked port whose node has left the fabric is still named by its node GUID: it must stay clearable.
    std::uint64_t guid = 0;
    const bool hex = node.size() > 2 && node[0] == '0' && (node[1] == 'x' || node[1] == 'X');
    const auto [end, ec] = hex ? std::from_chars(node.data() + 2, node.data() + node.size(), guid, 16)
                               : std::from_chars_result{node.data(), std::errc::invalid_argument};
    const bool is_guid = hex && ec == std::errc() && end == node.data() + node.size();
    for (const UnhealthyPortView& u : snap.unhealthy) {
      if (!is_guid || u.key.node_guid != guid || port != u.key.port) continue;
      control.request_port_clear(u.key, by);
      return Json{{"cleared", true}, {"node_guid", format_guid(u.key.node_guid)}, {"port", port}};
    }
    return make_error(ErrorCode::kInvalidInput, n.error().message +
                                                    " (a marked port whose node left the fabric is cleared by its "
                                                    "node GUID: smctl ports --unhealthy lists it)");
  }
  const Node& found = snap.topo->node(*n);
  if (port < 1 || port > found.num_ports) {
    return make_error(ErrorCode::kInvalidInput, snap.names.describe(found) + " has ports 1.." +
                                                    std::to_string(found.num_ports) + ", not " + std::to_string(port));
  }
  const PortKey key{found.guid, static_cast<PortNum>(port)};
  bool marked = false;
  for (const UnhealthyPortView& u : snap.unhealthy) marked = marked || u.key == key;
  control.request_port_clear(key, by);
  return Json{{"cleared", marked}, {"node_guid", format_guid(found.guid)}, {"port", port}};
}

}  // namespace smd::control
