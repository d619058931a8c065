#include "smd/cli/loss_comparison_output.h"

#include <cmath>
#include <cstdio>

#include "routing/base/safe_text.h"
#include "routing/roce/figure_text.h"
#include "smd/cli/roce_plan_output.h"

namespace smd {
namespace {
/// "host-4[1]": a cut-off CA port by the netfile's name, as the comparison's note names it.
std::string cut_off_name(const Topology& topo, const Endpoint& e) {
  return topo.node(e.ca).description + "[" + std::to_string(e.port) + "]";
}

}  // namespace

std::string failed_parts_text(const FabricLoss& loss) {
  std::string text;
  for (const DrainPart& p : loss.parts) text += (text.empty() ? "" : ", ") + p.text;
  return text;
}

nlohmann::ordered_json loss_json(const Topology& topo, const FabricLoss& loss, const roce::LossComparison& lc) {
  auto failed = nlohmann::ordered_json::array();
  for (const DrainPart& p : loss.parts) {
    nlohmann::ordered_json part;
    part["text"] = p.text;
    part["kind"] = p.kind == DrainPart::Kind::kSwitch ? "switch" : "cable";
    part["node_guid"] = format_guid(topo.node(p.node).guid);
    if (p.kind == DrainPart::Kind::kCable) {
      part["port"] = p.port;
      part["peer_guid"] = format_guid(topo.node(p.peer).guid);
      part["peer_port"] = p.peer_port;
    }
    failed.push_back(std::move(part));
  }
  auto cut = nlohmann::ordered_json::array();
  for (const Endpoint& e : lc.cut_off) cut.push_back(cut_off_name(topo, e));
  nlohmann::ordered_json j;
  j["failed"] = std::move(failed);
  j["cables"] = loss.cables;
  j["nodes_gone"] = loss.nodes_gone;
  j["ib_static"] = {{"engine", loss.routed.tables.engine},
                    {"made_by", loss.routed.made_by},
                    {"entries_kept", loss.routed.entries_kept},
                    {"entries_repaired", loss.routed.entries_repaired},
                    {"deadlock_free", loss.routed.verified.deadlock_free},
                    {"ca_deadlock_free", loss.routed.verified.ca_deadlock_free}};
  j["cut_off_endpoints"] = std::move(cut);
  j["comparison"] = comparison_json(lc.after);
  return j;
}

void print_loss_comparison(std::ostream& out, const FabricLoss& loss, const roce::LossComparison& lc) {
  out << "after losing " << printable_text(failed_parts_text(loss)) << " (" << loss.cables << " cable(s)";
  if (loss.nodes_gone) out << "; " << loss.nodes_gone << " node(s) no longer discovered";
  out << ")\n"
      << "ib-static after: " << loss.routed.made_by << " (" << loss.routed.tables.engine << "; "
      << loss.routed.entries_kept << " entries kept, " << loss.routed.entries_repaired << " routed again)\n";
  for (const auto& n : lc.after.notes) out << "note after: " << printable_text(n) << "\n";
  char line[320];
  if (!lc.after.collectives.empty()) {
    out << "collectives before -> after: time relative to ideal\n";
    std::snprintf(line, sizeof line, "%-16s %-12s %10s %10s %8s %9s\n", "collective", "scheme", "before", "after",
                  "change", "unrouted");
    out << line;
    std::string job;
    for (std::size_t c = 0; c < lc.after.collectives.size(); ++c) {
      const auto& b = lc.before.collectives[c];
      const auto& a = lc.after.collectives[c];
      if (c == 0 || a.job != job) {
        job = a.job;
        out << "job " << printable_text(job) << ": " << a.ranks << " ranks on " << a.leaves << " leaves\n";
      }
      for (std::size_t s = 0; s < a.schemes.size(); ++s) {
        const auto& fb = b.schemes[s];
        const auto& fa = a.schemes[s];
        std::snprintf(line, sizeof line, "%-16s %-12s %10s %10s %8s %9llu\n", a.name.c_str(), fa.name.c_str(),
                      roce::relative_text(fb.relative_time).c_str(), roce::relative_text(fa.relative_time).c_str(),
                      roce::change_text(fb.relative_time, fa.relative_time).c_str(),
                      static_cast<unsigned long long>(fa.unrouted));
        out << line;
      }
    }
  }
  out << "patterns before -> after\n";
  std::snprintf(line, sizeof line, "%-12s %-12s %9s %9s %8s %9s %9s %8s %9s\n", "pattern", "scheme", "max-load",
                "after", "change", "maxmin", "after", "change", "unrouted");
  out << line;
  for (std::size_t p = 0; p < lc.after.patterns.size(); ++p) {
    const auto& b = lc.before.patterns[p];
    const auto& a = lc.after.patterns[p];
    for (std::size_t s = 0; s < a.schemes.size(); ++s) {
      const auto& fb = b.schemes[s];
      const auto& fa = a.schemes[s];
      std::snprintf(line, sizeof line, "%-12s %-12s %9.2f %9.2f %8s %9.4f %9.4f %8s %9llu\n", a.name.c_str(),
                    fa.name.c_str(), fb.max_link_load, fa.max_link_load,
                    roce::change_text(fb.max_link_load, fa.max_link_load).c_str(), fb.maxmin_throughput,
                    fa.maxmin_throughput, roce::change_text(fb.maxmin_throughput, fa.maxmin_throughput).c_str(),
                    static_cast<unsigned long long>(fa.unrouted));
      out << line;
    }
  }
}

}  // namespace smd
