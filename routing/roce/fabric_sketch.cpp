// fabric_sketch: see fabric_sketch.h.
#include "routing/roce/fabric_sketch.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "routing/roce/xml_text.h"

namespace smd::roce {
namespace {

constexpr double kWidth = 900, kMargin = 20, kTop = 40, kRowGap = 80, kDot = 2.2;

struct Point {
  double x = 0, y = 0;
};

/// Where each switch of `plan` is drawn: tier rows, the highest on top (switches without a tier, which
/// reach no leaf, in a row above them), each row spread evenly in plan order.
std::vector<Point> place(const RoutePlan& plan, std::size_t& rows) {
  const auto& sw = plan.switches();
  unsigned top_tier = 0;
  bool untiered = false;
  for (const auto& s : sw) {
    if (s.tier == kNoTier) {
      untiered = true;
    } else {
      top_tier = std::max<unsigned>(top_tier, s.tier);
    }
  }
  rows = top_tier + 1 + (untiered ? 1 : 0);
  auto row_of = [&](const SwitchPlan& s) { return s.tier == kNoTier ? 0 : rows - 1 - s.tier; };
  std::vector<std::size_t> in_row(rows, 0), seen(rows, 0);
  for (const auto& s : sw) ++in_row[row_of(s)];
  std::vector<Point> at(sw.size());
  for (std::size_t i = 0; i < sw.size(); ++i) {
    const std::size_t r = row_of(sw[i]);
    const double step = (kWidth - 2 * kMargin) / static_cast<double>(in_row[r]);
    at[i] = Point{kMargin + (static_cast<double>(seen[r]++) + 0.5) * step, kTop + static_cast<double>(r) * kRowGap};
  }
  return at;
}

/// (guid, port) of every switch-to-switch cable end in `plan`.
std::set<std::pair<Guid, PortNum>> cable_ends(const RoutePlan& plan) {
  std::set<std::pair<Guid, PortNum>> out;
  for (const auto& s : plan.switches())
    for (const auto& i : s.interfaces) out.emplace(s.guid, i.port);
  return out;
}

void line(std::ostringstream& s, Point a, Point b, double dx) {
  s << " x1=\"" << svg_px(a.x + dx) << "\" y1=\"" << svg_px(a.y) << "\" x2=\"" << svg_px(b.x + dx) << "\" y2=\""
    << svg_px(b.y) << "\"";
}

}  // namespace

std::string fabric_sketch(const RoutePlan& plan, const RoutePlan* after, const std::vector<SketchMark>& marks,
                          const std::string& caption) {
  std::size_t rows = 1;
  const std::vector<Point> at = place(plan, rows);
  const auto& sw = plan.switches();
  std::unordered_map<Guid, std::size_t> by_guid;
  for (std::size_t i = 0; i < sw.size(); ++i) by_guid.emplace(sw[i].guid, i);
  const double height = kTop + static_cast<double>(rows - 1) * kRowGap + 50;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fabric-sketch\" width=\"" << svg_px(kWidth) << "\" height=\""
    << svg_px(height) << "\" viewBox=\"0 0 " << svg_px(kWidth) << " " << svg_px(height)
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n<text x=\"4\" y=\"16\" font-weight=\"bold\" font-size=\"13\">"
    << xml_escape(caption) << "</text>\n<g stroke=\"#c8c8c8\" stroke-width=\"0.4\">\n";
  const auto remaining = after ? cable_ends(*after) : std::set<std::pair<Guid, PortNum>>{};
  std::ostringstream lost;
  for (std::size_t i = 0; i < sw.size(); ++i) {
    for (const auto& itf : sw[i].interfaces) {
      const std::size_t j = itf.peer;
      if (j >= sw.size() || std::tie(j, itf.peer_port) < std::tie(i, itf.port)) continue;  // each cable once
      if (after && !remaining.count({sw[i].guid, itf.port})) {
        lost << "<line class=\"lost\" data-from=\"" << xml_name(sw[i].name) << "\" data-from-port=\""
             << unsigned{itf.port} << "\" data-to=\"" << xml_name(sw[j].name) << "\" data-to-port=\""
             << unsigned{itf.peer_port} << "\"";
        line(lost, at[i], at[j], 0);
        lost << " stroke=\"#d00000\" stroke-width=\"2\" stroke-dasharray=\"5 3\"><title>lost: " << xml_name(sw[i].name)
             << "[" << unsigned{itf.port} << "] - " << xml_name(sw[j].name) << "[" << unsigned{itf.peer_port}
             << "]</title></line>\n";
        continue;
      }
      s << "<line";
      line(s, at[i], at[j], 0);
      s << "/>\n";
    }
  }
  s << "</g>\n" << lost.str();
  for (const auto& m : marks) {
    const auto from = by_guid.find(m.cable.from_guid);
    const auto to = by_guid.find(m.cable.to_guid);
    if (from == by_guid.end() || to == by_guid.end()) continue;
    // Schemes that share a cable are set side by side, a pixel and a half apart.
    const double dx = (static_cast<double>(m.scheme) - 2.0) * 1.5;
    s << "<line class=\"hot\" data-scheme=\"" << xml_escape(m.scheme_name) << "\" data-from=\""
      << xml_name(m.cable.from) << "\" data-from-port=\"" << unsigned{m.cable.from_port} << "\" data-to=\""
      << xml_name(m.cable.to) << "\" data-to-port=\"" << unsigned{m.cable.to_port} << "\" data-load=\"" << m.cable.load
      << "\"";
    line(s, at[from->second], at[to->second], dx);
    s << " stroke=\"" << kSchemeColours[m.scheme % 5] << "\" stroke-width=\"2.5\"><title>" << xml_escape(m.scheme_name)
      << ": " << xml_name(m.cable.from) << "[" << unsigned{m.cable.from_port} << "] -&gt; " << xml_name(m.cable.to)
      << "[" << unsigned{m.cable.to_port} << "], load " << m.cable.load << "</title></line>\n";
  }
  std::size_t leaves = 0;
  for (std::size_t i = 0; i < sw.size(); ++i) {
    leaves += sw[i].has_hosts;
    s << "<circle cx=\"" << svg_px(at[i].x) << "\" cy=\"" << svg_px(at[i].y) << "\" r=\"" << kDot
      << "\" fill=\"#333333\"><title>" << xml_name(sw[i].name) << "</title></circle>\n";
  }
  s << "<text x=\"4\" y=\"" << svg_px(height - 8) << "\" fill=\"#555555\">" << sw.size() << " switches (" << leaves
    << " leaves, bottom row), " << plan.hosts().size()
    << " host ports below the leaves (not drawn); tiers of the RoCE plan as rows</text>\n</svg>\n";
  return s.str();
}

}  // namespace smd::roce
