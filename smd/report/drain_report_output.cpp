// drain_report_json / print_drain_report: see drain_report_output.h.
#include "smd/report/drain_report_output.h"

#include <cstdio>

#include "routing/base/safe_text.h"
#include "smd/report/chain_attempts_output.h"

namespace smd {
namespace {

std::string hex4(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

/// "host-3[1] lid 0x0004": the NodeDescription (else the GUID), port and base LID.
std::string endpoint_name(const Topology& topo, const DrainEndpoint& e) {
  const Node& n = topo.node(e.node);
  const std::string name = n.description.empty() ? format_guid(n.guid) : printable_text(n.description);
  return name + "[" + std::to_string(e.port) + "] lid " + hex4(e.lid);
}

std::string node_name(const Topology& topo, NodeIndex n) { return printable_text(describe_node(topo.node(n))); }

/// "ff12:401b:ffff:0000:0000:0000:ffff:ffff": an MGID as eight groups of four hex digits (IBA 4.1.1).
std::string mgid_text(const std::array<std::uint8_t, 16>& g) {
  std::string out;
  char buf[8];
  for (std::size_t i = 0; i < g.size(); i += 2) {
    std::snprintf(buf, sizeof buf, "%02x%02x", g[i], g[i + 1]);
    if (i) out += ':';
    out += buf;
  }
  return out;
}

std::string part_text(const Topology& topo, const DrainPart& p) {
  if (p.kind == DrainPart::Kind::kSwitch) return "switch " + node_name(topo, p.node);
  return "cable " + node_name(topo, p.node) + " port " + std::to_string(p.port) + " <-> " + node_name(topo, p.peer) +
         " port " + std::to_string(p.peer_port);
}

nlohmann::ordered_json loads_json(const QualityReport& q, bool deadlock_free, bool ca_deadlock_free) {
  return {{"endpoints", q.endpoints},
          {"shift_max_load", q.shift_max_load},
          {"shift_mean_max_load", q.shift_mean_max_load},
          {"perm_max_load_mean", q.perm_max_load_mean},
          {"perm_max_load_max", q.perm_max_load_max},
          {"unreachable_flows", q.unreachable_flows},
          {"deadlock_free", deadlock_free},
          {"ca_deadlock_free", ca_deadlock_free}};
}

const char* yes_no(bool v) { return v ? "yes" : "no"; }

/// The "drain" array: each argument as given and the part it named.
nlohmann::ordered_json parts_json(const Topology& topo, const std::vector<DrainPart>& parts_in) {
  auto parts = nlohmann::ordered_json::array();
  for (const DrainPart& p : parts_in) {
    nlohmann::ordered_json o{{"argument", p.text},
                             {"kind", p.kind == DrainPart::Kind::kSwitch ? "switch" : "cable"},
                             {"node", format_guid(topo.node(p.node).guid)},
                             {"name", printable_text(topo.node(p.node).description)}};
    if (p.kind == DrainPart::Kind::kCable) {
      o["port"] = p.port;
      o["peer"] = format_guid(topo.node(p.peer).guid);
      o["peer_name"] = printable_text(topo.node(p.peer).description);
      o["peer_port"] = p.peer_port;
    }
    parts.push_back(std::move(o));
  }
  return parts;
}

}  // namespace

nlohmann::ordered_json drain_report_json(const Topology& topo, const std::string& engine_before, const DrainReport& rep,
                                         const DrainTimings& tm) {
  nlohmann::ordered_json j;
  j["drain"] = parts_json(topo, rep.parts);
  if (!rep.overlaps.empty()) j["overlaps"] = rep.overlaps;
  j["cables_drained"] = rep.cables_drained;
  j["engine_before"] = engine_before;
  j["engine_after"] = rep.engine_after;
  j["made_by"] = rep.made_by;
  j["entries_kept"] = rep.entries_kept;
  j["entries_repaired"] = rep.entries_repaired;
  j["declined_after"] = declined_json(rep.declined);
  if (!rep.warning.empty()) j["warning_after"] = rep.warning;
  j["endpoints"] = rep.endpoints;
  j["reachable_pairs_before"] = rep.reachable_before;
  j["reachable_pairs_after"] = rep.reachable_after;
  j["lost_pairs"] = rep.lost_pairs;
  j["gained_pairs"] = rep.gained_pairs;
  auto lost = nlohmann::ordered_json::array();
  for (const LostPair& p : rep.first_lost) {
    lost.push_back({{"src", endpoint_name(topo, p.src)},
                    {"src_lid", p.src.lid},
                    {"dst", endpoint_name(topo, p.dst)},
                    {"dst_lid", p.dst.lid}});
  }
  j["first_lost_pairs"] = lost;
  j["cut_off_ports"] = rep.cut_off;
  auto cut = nlohmann::ordered_json::array();
  for (const DrainEndpoint& e : rep.first_cut_off) cut.push_back({{"port", endpoint_name(topo, e)}, {"lid", e.lid}});
  j["first_cut_off_ports"] = cut;
  j["sm_cut_off"] = rep.sm_cut_off;
  auto partitions = nlohmann::ordered_json::array();
  for (const PartitionImpact& p : rep.partitions) {
    auto mgids = nlohmann::ordered_json::array();
    for (const auto& g : p.mgids) mgids.push_back(mgid_text(g));
    partitions.push_back({{"name", p.name}, {"pkey", hex4(p.pkey)}, {"lost_pairs", p.lost_pairs}, {"mgids", mgids}});
  }
  j["partitions_affected"] = partitions;
  j["before"] = loads_json(rep.quality_before, rep.deadlock_free_before, rep.ca_deadlock_free_before);
  j["after"] = loads_json(rep.quality_after, rep.deadlock_free_after, rep.ca_deadlock_free_after);
  j["lft_blocks"] = rep.lft_blocks;
  j["switches_changed"] = rep.switches_changed;
  auto most = nlohmann::ordered_json::array();
  for (const SwitchBlockChange& c : rep.most_changed) {
    most.push_back({{"switch", format_guid(topo.node(c.node).guid)},
                    {"name", printable_text(topo.node(c.node).description)},
                    {"blocks", c.blocks},
                    {"top_before", c.top_before},
                    {"top_after", c.top_after}});
  }
  j["most_changed_switches"] = most;
  j["timings_ms"] = {{"read", tm.read},
                     {"lids", tm.lids},
                     {"route_before", tm.route_before},
                     {"what_if", tm.what_if},
                     {"what_if_route", rep.route_ms},
                     {"what_if_quality", rep.quality_ms},
                     {"what_if_pairs", rep.pairs_ms},
                     {"total", tm.total}};
  return j;
}

void print_drain_report(std::ostream& out, const Topology& topo, const std::string& engine_before,
                        const DrainReport& rep, const DrainTimings& tm) {
  char line[320];
  for (const DrainPart& p : rep.parts) out << "drain         " << part_text(topo, p) << "\n";
  for (const std::string& o : rep.overlaps) out << "note          " << printable_text(o) << "\n";
  out << "cables        " << rep.cables_drained << " taken out of routing (links stay up, LIDs kept)\n";
  print_declined(out, rep.declined);
  if (!rep.warning.empty()) out << "warning       " << rep.warning << "\n";
  out << "engine        " << engine_before << " -> " << rep.engine_after << "\n";
  out << "tables after  " << rep.made_by;
  if (rep.entries_kept || rep.entries_repaired) {
    out << ": " << rep.entries_repaired << " (switch, LID) entries routed again, " << rep.entries_kept << " kept";
  }
  out << "\n";
  std::snprintf(
      line, sizeof line, "reachable     %llu -> %llu of %llu ordered CA pairs (%zu CA ports)\n",
      static_cast<unsigned long long>(rep.reachable_before), static_cast<unsigned long long>(rep.reachable_after),
      static_cast<unsigned long long>(rep.endpoints ? rep.endpoints * (rep.endpoints - 1) : 0), rep.endpoints);
  out << line;
  out << "lost pairs    " << rep.lost_pairs << (rep.lost_pairs ? " (would lose every path)" : "") << "\n";
  for (const LostPair& p : rep.first_lost) {
    out << "  lost        " << endpoint_name(topo, p.src) << " -> " << endpoint_name(topo, p.dst) << "\n";
  }
  if (rep.gained_pairs) out << "gained pairs  " << rep.gained_pairs << " (had no path before)\n";
  out << "cut off       " << rep.cut_off << " CA ports" << (rep.sm_cut_off ? ", the SM's own port among them" : "")
      << "\n";
  for (const DrainEndpoint& e : rep.first_cut_off) out << "  cut off     " << endpoint_name(topo, e) << "\n";
  for (const PartitionImpact& p : rep.partitions) {
    out << "partition     " << p.name << " (" << hex4(p.pkey) << "): " << p.lost_pairs << " member pairs lost";
    for (const auto& g : p.mgids) out << "; group " << mgid_text(g);
    out << "\n";
  }
  const QualityReport& b = rep.quality_before;
  const QualityReport& a = rep.quality_after;
  std::snprintf(line, sizeof line, "shift         max load %u -> %u, mean of max %.3f -> %.3f\n", b.shift_max_load,
                a.shift_max_load, b.shift_mean_max_load, a.shift_mean_max_load);
  out << line;
  std::snprintf(line, sizeof line, "permutation   mean max load %.3f -> %.3f, worst %u -> %u (%u seeds)\n",
                b.perm_max_load_mean, a.perm_max_load_mean, b.perm_max_load_max, a.perm_max_load_max, a.perm_seeds);
  out << line;
  out << "deadlock-free " << yes_no(rep.deadlock_free_before) << " -> " << yes_no(rep.deadlock_free_after)
      << " (all routes), " << yes_no(rep.ca_deadlock_free_before) << " -> " << yes_no(rep.ca_deadlock_free_after)
      << " (CA-injected traffic only)\n";
  out << "LFT blocks    " << rep.lft_blocks << " to write on " << rep.switches_changed << " switches\n";
  for (const SwitchBlockChange& c : rep.most_changed) {
    out << "  blocks      " << c.blocks << " on " << node_name(topo, c.node);
    if (c.top_before != c.top_after)
      out << " (LinearFDBTop " << hex4(c.top_before) << " -> " << hex4(c.top_after) << ")";
    out << "\n";
  }
  std::snprintf(line, sizeof line,
                "time          read %.0f ms, LIDs %.0f, routing before %.0f; what-if %.0f (route %.0f, quality %.0f, "
                "pairs and blocks %.0f); total %.0f ms\n",
                tm.read, tm.lids, tm.route_before, tm.what_if, rep.route_ms, rep.quality_ms, rep.pairs_ms, tm.total);
  out << line;
}

}  // namespace smd
