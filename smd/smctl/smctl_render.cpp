#include "smd/smctl/smctl_render.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "routing/base/safe_text.h"

namespace smd::control {
namespace {

// Missing fields print as "-" so a daemon of another version still gets a readable table. Strings may
// come from the fabric (NodeDescriptions, problems naming nodes): printed without control characters.
std::string str(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "-";
  return it->is_string() ? printable_text(it->get<std::string>()) : it->dump();
}

/// A duration in ms to 0.1 ms, as the daemon's own log prints them; "-" as str() when missing.
std::string ms(const Json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return str(j, key);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", it->get<double>());
  return buf;
}

/// A string element of an array (a problem, a declined engine's reason), printed as str() prints.
std::string text(const Json& j) { return j.is_string() ? printable_text(j.get<std::string>()) : j.dump(); }

// One line of a report the daemon made printable already (its names went through printable_text): shown
// as it is, so a NodeDescription's `\x1b` reads `\x1b` and not `\\x1b`. A line that still holds a byte
// printable_text would change other than a backslash (a daemon that did not escape) is escaped whole, so
// no control character reaches the terminal either way.
std::string report_line(const std::string& line) {
  std::string backslashes_doubled;
  for (const char c : line) backslashes_doubled += c == '\\' ? std::string("\\\\") : std::string(1, c);
  return printable_text(line) == backslashes_doubled ? line : printable_text(line);
}

/// status: the election's counters, a handover awaited, the other SMs.
void render_election_lines(std::ostream& out, const Json& s) {
  if (s.contains("election")) {  // daemons before issue 13 left it out
    const Json& e = s.at("election");
    out << std::setw(14) << "Election"
        << "masters seen " << str(e, "masters_seen") << ", election rounds " << str(e, "elections")
        << ", handovers sent " << str(e, "handovers_sent") << " received " << str(e, "handovers_received")
        << ", two masters " << str(e, "two_masters") << ", IsSM restored " << str(e, "is_sm_restored") << "\n";
    if (e.contains("awaiting_handover_from") && !e.at("awaiting_handover_from").is_null()) {
      out << std::setw(14) << "Awaiting"
          << "HANDOVER from lower master " << str(e, "awaiting_handover_from") << "\n";
    }
    if (e.contains("other_sms")) {
      for (const Json& sm : e.at("other_sms")) {
        out << std::setw(14) << "Other SM" << str(sm, "guid") << " " << str(sm, "state") << " (priority "
            << str(sm, "priority") << ") LID " << str(sm, "lid") << "\n";
      }
    }
  }
}

/// status: the policy's generation and a refused reload.
void render_policy_lines(std::ostream& out, const Json& s) {
  if (s.contains("policy")) {  // daemons before policy generations left it out
    const Json& policy = s.at("policy");
    out << std::setw(14) << "Policy" << str(policy, "generation") << " (" << str(policy, "source") << ")\n";
    // A refused SIGHUP: the file on disk is not what runs.
    if (policy.contains("reload_refused")) {
      const Json& r = policy.at("reload_refused");
      out << std::setw(14) << "Reload"
          << "REFUSED since " << str(r, "since") << " (" << str(policy, "reloads_refused")
          << " refused in all), running policy kept: " << str(r, "error") << "\n";
    }
  }
}

void render_status(std::ostream& out, const Json& s) {
  const Json& sweeps = s.at("sweeps");
  const Json& last = s.at("last_sweep");
  const Json& fabric = s.at("fabric");
  out << std::left;
  if (s.contains("instance") && s.at("instance").is_string()) {  // smd --instance NAME
    out << std::setw(14) << "Instance" << str(s, "instance") << "\n";
  }
  out << std::setw(14) << "SM state" << str(s, "state") << " (priority " << str(s, "priority") << ")\n";
  out << std::setw(14) << "SM port" << str(s, "sm_guid") << " LID " << str(s, "sm_lid") << "\n";
  out << std::setw(14) << "Master" << str(s, "master_guid") << " LID " << str(s, "master_lid") << "\n";
  render_election_lines(out, s);
  out << std::setw(14) << "Sweeps"
      << "heavy " << str(sweeps, "heavy") << ", light " << str(sweeps, "light") << ", failed " << str(sweeps, "failed")
      << "\n";
  if (s.contains("sweeps_off") && s.at("sweeps_off").is_object()) {
    const Json& off = s.at("sweeps_off");
    out << "Sweeps OFF since " << str(off, "since") << " by " << str(off, "by") << ": " << str(off, "reason") << " ("
        << str(off, "held_back") << " heavy sweeps held back)\n";
  }
  if (s.contains("drained") && !s.at("drained").empty()) {
    for (const Json& d : s.at("drained")) {
      out << std::setw(14) << "Drained" << str(d, "what") << (d.value("forced", false) ? " (forced)" : "") << "\n";
    }
    const std::size_t listed = s.at("drained").size();
    const std::size_t total = s.value("drained_total", listed);
    if (total > listed) {
      out << std::setw(14) << "" << "and " << total - listed << " more (" << total << " parts, "
          << s.value("drained_forced", std::size_t{0}) << " forced): state_dir/drained lists them all\n";
    }
    out << std::setw(14) << "" << str(s, "drained_cables") << " cables out of routing\n";
  }
  // Only a MASTER configures: a standby's sweeps discover the fabric and stop, which is not a failure.
  const bool configures = str(s, "state") == "MASTER";
  out << std::setw(14) << "Last sweep";
  if (last.at("time").is_null()) {
    out << "none yet\n";
  } else if (!configures && !last.value("subnet_up", false)) {
    out << str(last, "time") << ": discovery only (" << str(s, "state") << ": the master configures the subnet), "
        << ms(last, "total_ms") << " ms\n";
  } else {
    out << str(last, "time") << ": " << (last.value("subnet_up", false) ? "subnet up" : "subnet NOT up") << ", "
        << str(last, "problems") << " problems, " << ms(last, "total_ms") << " ms\n";
  }
  if (s.contains("smps")) {  // daemons before the SMP counters left them out
    const Json& smps = s.at("smps");
    out << std::setw(14) << "SMPs" << str(smps, "sent") << " sent, " << str(smps, "retries") << " retries, "
        << str(smps, "timeouts") << " lost after all retries\n";
  }
  if (s.contains("last_repair_ms")) out << std::setw(14) << "Last repair" << ms(s, "last_repair_ms") << " ms\n";
  const std::string engine = str(s, "engine");
  out << std::setw(14) << "Engine" << (engine.empty() ? (configures ? "-" : "- (not routing: standing by)") : engine)
      << "\n";
  out << std::setw(14) << "Fabric" << str(fabric, "switches") << " switches, " << str(fabric, "cas") << " CAs, "
      << str(fabric, "links") << " links, " << str(fabric, "lids") << " ports with LIDs"
      << (configures ? "" : " (LIDs are the master's to assign)") << "\n";
  render_policy_lines(out, s);
  if (s.contains("metrics") && !s.at("metrics").is_null())
    out << std::setw(14) << "Metrics" << str(s, "metrics") << "\n";
  if (s.contains("log_level")) out << std::setw(14) << "Log level" << str(s, "log_level") << "\n";
  // Keys of the reloaded policy file that are not in effect: the running value stays until a restart.
  if (s.contains("needs_restart")) {
    for (const Json& k : s.at("needs_restart")) {
      out << std::setw(14) << "Needs restart" << str(k, "key") << " (running " << str(k, "running") << ", file "
          << str(k, "file") << ")\n";
    }
  }
}

// The SM-owned PortInfo fields of one port on one line, "HOQLife 16, VLStallCount 7, ...", in the order
// the daemon sent them (nlohmann's objects sort by name; that order is fine to read).
std::string port_fields_text(const Json& fields) {
  std::string text;
  for (const auto& [name, value] : fields.items()) {
    text += (text.empty() ? "" : ", ") + name + " " + value.dump();
  }
  return text;
}

void render_nodes(std::ostream& out, const Json& nodes) {
  out << std::left << std::setw(7) << "TYPE" << std::setw(20) << "GUID" << std::setw(12) << "LIDS" << std::setw(14)
      << "DR PATH"
      << "NAME\n";
  for (const Json& n : nodes) {
    std::string lids;
    for (const Json& l : n.at("lids")) lids += (lids.empty() ? "" : ",") + l.dump();
    out << std::setw(7) << str(n, "type") << std::setw(20) << str(n, "guid") << std::setw(12)
        << (lids.empty() ? "-" : lids) << std::setw(14) << str(n, "dr_path") << str(n, "name") << "\n";
    if (n.contains("port0_fields") || n.contains("life_time_value")) {
      out << "    port 0   ";
      if (n.contains("life_time_value")) out << "LifeTimeValue " << str(n, "life_time_value") << " ";
      if (n.contains("port0_fields")) out << port_fields_text(n.at("port0_fields"));
      out << "\n";
    }
    for (const Json& p : n.at("ports")) {
      out << "    port " << std::setw(4) << str(p, "port") << std::setw(8) << str(p, "state");
      const Json& peer = p.at("peer");
      if (peer.is_null()) {
        out << "(no cable)\n";
      } else {
        out << "-> " << str(peer, "name") << " port " << str(peer, "port") << " (" << str(peer, "guid") << ")\n";
      }
      if (p.contains("fields")) out << "             " << port_fields_text(p.at("fields")) << "\n";
    }
  }
}

void render_lfts(std::ostream& out, const Json& tables) {
  for (const Json& t : tables) {
    out << "switch " << str(t, "name") << " " << str(t, "guid") << " LID " << str(t, "lid") << " LinearFDBTop "
        << str(t, "top") << "\n";
    out << "  " << std::left << std::setw(8) << "LID" << std::setw(6) << "PORT"
        << "DESTINATION\n";
    for (const Json& e : t.at("entries")) {
      out << "  " << std::setw(8) << str(e, "lid") << std::setw(6) << str(e, "port") << str(e, "dest") << "\n";
    }
  }
}

void render_route(std::ostream& out, const Json& r) {
  const Json& src = r.at("src");
  const Json& dst = r.at("dst");
  out << str(src, "name") << " (LID " << str(src, "lid") << ") -> " << str(dst, "name") << " (LID " << str(dst, "lid")
      << "): " << str(r, "hop_count") << (str(r, "hop_count") == "1" ? " switch hop\n" : " switch hops\n");
  out << "  " << std::left << std::setw(20) << "SWITCH" << std::setw(5) << "IN" << std::setw(5) << "OUT"
      << "NEXT\n";
  for (const Json& h : r.at("hops")) {
    out << "  " << std::setw(20) << str(h, "name") << std::setw(5) << str(h, "in_port") << std::setw(5)
        << str(h, "out_port");
    if (h.contains("peer")) {
      out << str(h, "peer_name") << " port " << str(h, "peer_port");
    } else {
      out << "(this switch)";
    }
    out << "\n";
  }
}

void render_report(std::ostream& out, const Json& r) {
  out << (r.value("subnet_up", false) ? "SUBNET UP" : "SUBNET NOT UP") << " in " << ms(r, "total_ms") << " ms\n";
  out << "  fabric   " << str(r, "switches") << " switches, " << str(r, "cas") << " CAs, " << str(r, "links")
      << " links, " << str(r, "lids") << " ports with LIDs\n";
  out << "  routing  " << str(r, "engine") << "\n";
  for (const Json& d : r.at("declined")) out << "    declined: " << text(d) << "\n";
  out << "  SMPs     " << str(r, "smps_sent") << " sent, " << str(r, "retries") << " retries, " << str(r, "timeouts")
      << " timeouts\n";
  out << "  LFTs     " << str(r, "lft_blocks_written") << " blocks written, " << str(r, "lft_blocks_skipped")
      << " unchanged; " << str(r, "port_sets") << " PortInfo sets\n";
  // Aligned on the longest phase name, so a long one never runs into its time; one decimal as `smd --once` prints.
  std::size_t width = 0;
  for (const Json& p : r.at("phases")) width = std::max(width, str(p, "phase").size());
  for (const Json& p : r.at("phases")) {
    const Json& ms = p.contains("ms") ? p.at("ms") : Json();
    std::ostringstream time;
    if (ms.is_number()) {
      time << std::fixed << std::setprecision(1) << ms.get<double>();
    } else {
      time << str(p, "ms");
    }
    out << "    " << std::left << std::setw(static_cast<int>(width + 2)) << str(p, "phase") << time.str() << " ms\n";
  }
  for (const Json& p : r.at("problems")) out << "  problem: " << text(p) << "\n";
}

}  // namespace

void render_sa(std::ostream& out, const Json& r) {
  if (!r.value("enabled", false)) {
    out << "SA turned off (sa.enabled: false)\n";
    return;
  }
  out << "SA " << (r.value("serving", false) ? "serving" : "not serving (not master, or no swept fabric yet)") << "\n";
  out << "  services       " << str(r, "services") << "\n";
  out << "  subscriptions  " << str(r, "subscriptions") << " (reports sent " << str(r, "reports_sent")
      << ", acknowledged " << str(r, "reports_acknowledged") << ", subscriptions dropped "
      << str(r, "subscriptions_dropped") << ")\n";
  out << "  queue          " << str(r, "queue_depth") << " waiting; mean answer " << str(r, "latency_mean_us")
      << " us over " << str(r, "latency_count") << " answers\n";
  for (const auto& [why, n] : r.at("dropped").items()) out << "  dropped        " << why << ": " << text(n) << "\n";
  for (const Json& v : r.at("service_list")) {
    const long long lease = v.value("lease_s", -1LL);
    out << "  service        " << str(v, "name") << " id " << str(v, "id") << " at " << str(v, "gid") << ", "
        << (lease < 0 ? std::string("no lease") : std::to_string(lease) + " s left") << "\n";
  }
  for (const Json& v : r.at("subscription_list")) {
    const unsigned trap = v.value("trap", 0u);
    out << "  subscription   " << str(v, "id") << ": LID " << str(v, "lid") << ", "
        << (trap == 0xFFFF ? std::string("every trap") : "trap " + std::to_string(trap)) << "\n";
  }
  out << "  queries:\n";
  for (const Json& a : r.at("answers")) {
    out << "    " << str(a, "attribute") << " " << str(a, "method") << " " << str(a, "status") << ": "
        << str(a, "count") << "\n";
  }
}

void render_partitions(std::ostream& out, const Json& r) {
  out << "partition enforcement " << str(r, "enforcement") << " (switch ports facing CAs), allow_both_pkeys "
      << str(r, "allow_both_pkeys") << (r.value("planned", false) ? "" : "; no sweep has planned them yet") << "\n";
  for (const Json& p : r.at("partitions")) {
    out << "  " << str(p, "pkey") << "  " << std::left << std::setw(20) << str(p, "name");
    if (p.contains("full")) out << " full " << str(p, "full") << ", limited " << str(p, "limited");
    if (p.value("ipoib", false)) out << ", IPoIB";
    if (p.value("index0", false)) out << ", index 0";
    out << "\n";
    if (p.contains("members")) {
      for (const Json& m : p.at("members")) {
        out << "      " << str(m, "guid") << "  " << std::setw(8) << str(m, "membership") << " "
            << str(m, "description") << "\n";
      }
    }
  }
  for (const Json& pr : r.at("problems")) {
    out << "  problem: " << str(pr, "guid") << " port " << str(pr, "port") << ": " << str(pr, "reason") << "\n";
  }
}

void render_groups(std::ostream& out, const Json& r) {
  if (r.empty()) {
    out << "no multicast groups\n";
    return;
  }
  for (const Json& g : r) {
    out << str(g, "mlid") << "  " << std::left << std::setw(40) << str(g, "mgid") << " members " << str(g, "members")
        << " (full " << str(g, "full") << ", non " << str(g, "non_member") << ", send-only " << str(g, "send_only")
        << ")";
    const std::string root = str(g, "root");
    if (root.empty()) {
      out << ", no tree";
    } else {
      out << ", tree of " << str(g, "tree_switches") << " switches rooted at " << root;
    }
    if (!g.value("programmed", false) && !root.empty()) out << " (rebuild pending)";
    out << "\n";
  }
}

// One line per port: the error counters that moved in the last interval (or "clean"), the data rates.
void render_counters(std::ostream& out, const Json& r) {
  const Json& last = r.at("last_pass");
  if (r.value("passes", 0) == 0) {
    out << "PerfMgr: no counter pass has ended yet (the first ends one perfmgr.interval after the first sweep)\n";
    return;
  }
  out << "PerfMgr: " << str(r, "passes") << " passes every " << str(r, "interval_s")
      << " s; last: " << str(last, "ports") << " ports, " << str(last, "mads") << " MADs, " << str(last, "timeouts")
      << " timeouts, " << ms(last, "wall_ms") << " ms (" << ms(last, "cpu_ms") << " ms CPU)";
  if (last.value("unreachable", 0) > 0) {
    out << "; " << str(last, "unreachable") << " ports not polled (drained or isolated: no LID route reaches them)";
  }
  out << "\n";
  if (last.value("ports", 0) == 0 && last.value("unreachable", 0) > 0) {
    out << "nothing polled: no LID route from the SM's port reaches any port (the SM's own port or switch is "
           "drained or isolated: smctl status lists the drains); counters resume once it is undrained\n";
  }
  for (const Json& p : r.at("ports")) {
    out << std::left << std::setw(20) << str(p, "node_guid") << " " << std::setw(24) << str(p, "node_desc") << " port "
        << std::setw(3) << str(p, "port") << " -> " << std::setw(24) << str(p, "peer");
    std::string moved;
    for (const auto& [name, value] : p.at("delta").items()) {
      if (value.get<std::uint64_t>() == 0) continue;
      moved += " " + name + "+" + value.dump() + " (" + p.at("counters").at(name).dump() + ")";
    }
    out << (moved.empty() ? " clean" : moved);
    const Json& rate = p.at("rate");
    out << "  xmit " << str(rate, "xmit_bytes") << " B/s rcv " << str(rate, "rcv_bytes") << " B/s";
    if (!p.at("saturated").empty()) out << "  saturated: " << p.at("saturated").dump();
    out << "\n";
  }
}

void render_ports(std::ostream& out, const Json& r) {
  out << str(r, "unhealthy") << " unhealthy, " << str(r, "isolated") << " isolated\n";
  for (const Json& p : r.at("ports")) {
    out << std::left << std::setw(20) << str(p, "node_guid") << " " << std::setw(24) << str(p, "node_desc") << " port "
        << std::setw(3) << str(p, "port") << " DR " << std::setw(12) << str(p, "dr_path") << " -> ";
    const bool unhealthy = p.value("unhealthy", false);
    out << std::setw(unhealthy ? 24 : 0) << str(p, "peer");  // the last column of a healthy port: no padding
    if (unhealthy && p.value("babbling", false)) {
      out << " BABBLING: " << str(p, "reason") << "; link end " << str(p, "disabled_end") << "; since "
          << str(p, "since");
    } else if (unhealthy) {
      out << " UNHEALTHY: " << str(p, "reason") << "; "
          << (p.value("isolated", false) ? "isolated (routes go around it)" : "not isolated: " + str(p, "kept_reason"))
          << "; since " << str(p, "since");
    }
    out << "\n";
  }
}

void render_text(std::ostream& out, const std::string& cmd, const Json& result) {
  try {
    if (cmd == "status") return render_status(out, result);
    if (cmd == "nodes") return render_nodes(out, result);
    if (cmd == "lfts") return render_lfts(out, result);
    if (cmd == "route") return render_route(out, result);
    if (cmd == "report") return render_report(out, result);
    if (cmd == "sa") return render_sa(out, result);
    if (cmd == "partitions") return render_partitions(out, result);
    if (cmd == "groups") return render_groups(out, result);
    if (cmd == "counters") return render_counters(out, result);
    if (cmd == "ports") return render_ports(out, result);
    if (cmd == "port_clear") {
      out << (result.value("cleared", false) ? "cleared " : "not marked (nothing to clear): ")
          << str(result, "node_guid") << " port " << str(result, "port") << "\n";
      return;
    }
    if (cmd == "log_level") {
      out << "log level " << str(result, "log_level") << "\n";
      return;
    }
    if (cmd == "sweep" || cmd == "reroute" || cmd == "sweeps" || cmd == "perfmgr") {
      out << "requested " << str(result, "requested") << "\n";
      return;
    }
    if (cmd == "what_if_drain") {
      std::istringstream lines(result.at("text").get<std::string>());
      for (std::string line; std::getline(lines, line);) out << report_line(line) << "\n";
      return;
    }
    if (cmd == "drain" || cmd == "undrain") {
      const char* key = cmd == "drain" ? "drained" : "undrained";
      for (const Json& d : result.at(key)) out << key << " " << text(d) << "\n";
      if (result.contains("already")) {
        for (const Json& d : result.at("already")) out << "already drained " << text(d) << "\n";
      }
      if (result.contains("not_drained")) {
        for (const Json& d : result.at("not_drained")) out << "not drained " << text(d) << "\n";
      }
      if (result.contains("separated")) out << "forced: cuts off " << str(result, "separated") << "\n";
      if (result.contains("sm_own")) {
        out << "drains " << str(result, "sm_own")
            << ": no LID route from the SM reaches the fabric; the PerfMgr polls nothing until it is undrained\n";
      }
      if (result.contains("unroutable")) {
        out << "forced: no engine of the chain routes it (" << str(result, "unroutable") << "); the SM routes with "
            << str(result, "fallback_engine") << " until it is undrained\n";
      }
      if (result.at(key).empty()) out << "nothing changed\n";
      return;
    }
    if (cmd == "export" && result.contains("plan")) {
      const Json& plan = result.at("plan");
      out << (plan.is_string() ? text(plan) : plan.dump(2, ' ', false, Json::error_handler_t::replace)) << "\n";
      return;
    }
  } catch (const Json::exception&) {
    // A shape this smctl does not know (another daemon version): show the JSON instead.
  }
  out << result.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
}

}  // namespace smd::control
