#include "routing/roce/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "routing/roce/xml_text.h"

namespace smd::roce {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

/// A bar's printed value: short, and never "inf" (a collective with an unrouted flow has no time).
std::string label(double v) {
  if (!std::isfinite(v)) return "unrouted";
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 ? "%.0f" : "%.3g", v);
  return buf;
}

/// A "nice" axis top: the smallest of 1, 2, 5 times a power of ten at or above v.
double nice_top(double v) {
  if (v <= 0) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= v) return m * p;
  }
  return 10 * p;
}

/// One group of bars (a collective or a pattern), a value per scheme.
struct Group {
  std::string label;
  std::vector<double> values;
  std::string job;  ///< a second, smaller label line: the job of a collective ("" = none)
};

/// One panel. Linear panels run 0..1; the log panel runs from 1 (ideal) to a nice top >= 2, so that
/// ratios of 1.05 and 40 are both readable.
struct Panel {
  std::string title;
  std::vector<Group> groups;
  bool log_axis = false;
};

struct Geometry {
  double bar_w = 36, group_gap = 30, left = 70, top = 60, panel_h = 220, panel_gap = 80, plot_w = 300;
  std::size_t schemes = 0;
};

/// Height of value v on the panel's axis; every bar gets at least 2 px, so a value that is tiny (a
/// per-flow share of 1/511 in an all-to-all) or exactly ideal still shows, with its number above it.
double bar_height(const Panel& panel, double v, double ytop, double panel_h) {
  double h = 0;
  if (!std::isfinite(v)) {
    h = panel_h;
  } else if (panel.log_axis) {
    h = v > 1 ? panel_h * std::min(1.0, std::log(v) / std::log(ytop)) : 0;
  } else {
    h = ytop > 0 ? panel_h * std::clamp(v, 0.0, ytop) / ytop : 0;
  }
  return std::max(h, 2.0);
}

void draw_panel(std::ostringstream& s, const Panel& panel, const Geometry& g, double y0,
                const std::vector<std::string>& scheme_names) {
  const double base = y0 + g.panel_h;
  double vmax = 1;
  for (const auto& grp : panel.groups)
    for (double v : grp.values)
      if (std::isfinite(v)) vmax = std::max(vmax, v);
  const double ytop = panel.log_axis ? std::max(2.0, nice_top(vmax)) : 1.0;
  s << "<g class=\"panel\">\n<text x=\"" << num(g.left) << "\" y=\"" << num(y0 - 24) << "\" font-weight=\"bold\">"
    << xml_escape(panel.title) << "</text>\n";
  // Y axis: linear 0..1 in fifths; log at 1, 2, 5 times powers of ten up to the top.
  std::vector<double> ticks;
  if (panel.log_axis) {
    for (double p = 1; p <= ytop * 1.0001; p *= 10)
      for (double m : {1.0, 2.0, 5.0})
        if (m * p <= ytop * 1.0001) ticks.push_back(m * p);
  } else {
    for (int t = 0; t <= 5; ++t) ticks.push_back(t / 5.0);
  }
  for (double v : ticks) {
    const double y =
        base - (panel.log_axis ? (v > 1 ? g.panel_h * std::log(v) / std::log(ytop) : 0) : g.panel_h * v / ytop);
    s << "<line x1=\"" << num(g.left) << "\" y1=\"" << num(y) << "\" x2=\"" << num(g.left + g.plot_w) << "\" y2=\""
      << num(y) << "\" stroke=\"#dddddd\"/>\n"
      << "<text x=\"" << num(g.left - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">" << num(v)
      << "</text>\n";
  }
  s << "<line x1=\"" << num(g.left) << "\" y1=\"" << num(y0) << "\" x2=\"" << num(g.left) << "\" y2=\"" << num(base)
    << "\" stroke=\"black\"/>\n<line x1=\"" << num(g.left) << "\" y1=\"" << num(base) << "\" x2=\""
    << num(g.left + g.plot_w) << "\" y2=\"" << num(base) << "\" stroke=\"black\"/>\n";
  for (std::size_t i = 0; i < panel.groups.size(); ++i) {
    const auto& grp = panel.groups[i];
    const double gx = g.left + g.group_gap / 2 + i * (g.schemes * g.bar_w + g.group_gap);
    for (std::size_t k = 0; k < grp.values.size(); ++k) {
      const double v = grp.values[k];
      const double h = bar_height(panel, v, ytop, g.panel_h);
      const double x = gx + k * g.bar_w;
      const std::string name = k < scheme_names.size() ? scheme_names[k] : "";
      s << "<rect x=\"" << num(x) << "\" y=\"" << num(base - h) << "\" width=\"" << num(g.bar_w - 2) << "\" height=\""
        << num(h) << "\" fill=\"" << (std::isfinite(v) ? kSchemeColours[k % 5] : "#999999") << "\"><title>"
        << xml_escape(grp.job.empty() ? grp.label : grp.job + " " + grp.label) << ", " << xml_escape(name) << ": "
        << label(v) << "</title></rect>\n"
        << "<text x=\"" << num(x + g.bar_w / 2 - 1) << "\" y=\"" << num(base - h - 3)
        << "\" text-anchor=\"middle\" font-size=\"9\">" << label(v) << "</text>\n";
    }
    s << "<text x=\"" << num(gx + g.schemes * g.bar_w / 2) << "\" y=\"" << num(base + 16)
      << "\" text-anchor=\"middle\">" << xml_escape(grp.label) << "</text>\n";
    if (!grp.job.empty()) {
      s << "<text x=\"" << num(gx + g.schemes * g.bar_w / 2) << "\" y=\"" << num(base + 30)
        << "\" text-anchor=\"middle\" font-size=\"10\">" << xml_escape(grp.job) << "</text>\n";
    }
  }
  s << "</g>\n";
}

/// The pattern panels: one value per (pattern, scheme) of `value`.
template <class Value>
Panel pattern_panel(const Comparison& cmp, std::string title, Value value) {
  Panel panel{std::move(title), {}, false};
  for (const auto& p : cmp.patterns) {
    Group grp{p.name, {}, {}};
    for (const auto& f : p.schemes) grp.values.push_back(value(f));
    panel.groups.push_back(std::move(grp));
  }
  return panel;
}

}  // namespace

std::string svg_chart(const Comparison& cmp, const std::string& title) {
  std::vector<Panel> panels;
  if (!cmp.collectives.empty()) {
    Panel first{
        "collective completion time relative to ideal (log axis from 1 = a non-blocking fabric), lower is better",
        {},
        true};
    // One group of bars per (job, collective); the job named under it when it is not the whole fabric.
    for (const auto& c : cmp.collectives) {
      Group grp{c.name, {}, c.job == "all" ? std::string() : c.job};
      for (const auto& f : c.schemes) grp.values.push_back(f.relative_time);
      first.groups.push_back(std::move(grp));
    }
    panels.push_back(std::move(first));
  }
  panels.push_back(pattern_panel(cmp, "mean bottleneck share (eBB), higher is better",
                                 [](const SchemeFigures& f) { return f.mean_bottleneck_share; }));
  panels.push_back(pattern_panel(cmp, "max-min fair throughput per flow (share of line rate), higher is better",
                                 [](const SchemeFigures& f) { return f.maxmin_throughput; }));
  // Loads are left to the table: all-to-all's would dwarf every other pattern on a shared axis.
  panels.push_back(pattern_panel(cmp, "collision share (flows sharing a switch-to-switch cable), lower is better",
                                 [](const SchemeFigures& f) { return f.collision_share; }));
  std::vector<std::string> scheme_names;
  if (!cmp.patterns.empty()) {
    for (const auto& f : cmp.patterns[0].schemes) scheme_names.push_back(f.name);
  } else if (!cmp.collectives.empty()) {
    for (const auto& f : cmp.collectives[0].schemes) scheme_names.push_back(f.name);
  }
  Geometry g;
  g.schemes = scheme_names.size();
  for (const auto& panel : panels) {
    g.plot_w = std::max(g.plot_w, panel.groups.size() * (g.schemes * g.bar_w + g.group_gap));
  }
  const double width = g.left + g.plot_w + 20 + 170;  // legend column on the right
  const double height = g.top + panels.size() * (g.panel_h + g.panel_gap);

  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(width) << "\" height=\""
    << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect x=\"0\" y=\"0\" width=\"" << num(width) << "\" height=\"" << num(height) << "\" fill=\"white\"/>\n"
    << "<text x=\"" << num(g.left) << "\" y=\"24\" font-size=\"16\" font-weight=\"bold\">" << xml_escape(title)
    << "</text>\n";
  for (std::size_t pi = 0; pi < panels.size(); ++pi) {
    draw_panel(s, panels[pi], g, g.top + 20 + pi * (g.panel_h + g.panel_gap), scheme_names);
  }
  // Legend: one swatch per scheme.
  const double lx = g.left + g.plot_w + 30;
  for (std::size_t k = 0; k < scheme_names.size(); ++k) {
    const double ly = g.top + 20 + k * 20;
    s << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly) << "\" width=\"14\" height=\"14\" fill=\""
      << kSchemeColours[k % 5] << "\"/>\n<text x=\"" << num(lx + 20) << "\" y=\"" << num(ly + 11) << "\">"
      << xml_escape(scheme_names[k]) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace smd::roce
