#include "routing/roce/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

namespace smd::roce {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

/// Colour-blind-safe palette (Okabe & Ito 2008), one colour per scheme in Comparison order.
constexpr const char* kColours[] = {"#0072B2", "#009E73", "#D55E00", "#CC79A7", "#E69F00"};

struct Panel {
  std::string label;
  std::function<double(const SchemeFigures&)> value;
  bool unit_range;  // fixed 0..1 axis
};

/// A "nice" axis top: the smallest of 1, 2, 5 times a power of ten at or above v.
double nice_top(double v) {
  if (v <= 0) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * p >= v) return m * p;
  }
  return 10 * p;
}

}  // namespace

std::string svg_chart(const Comparison& cmp, const std::string& title) {
  const std::vector<Panel> panels = {
      {"mean bottleneck share (eBB), higher is better", [](const SchemeFigures& f) { return f.mean_bottleneck_share; },
       true},
      {"max-min fair throughput per flow (share of line rate), higher is better",
       [](const SchemeFigures& f) { return f.maxmin_throughput; }, true},
      // Loads are left to the table: all-to-all's would dwarf every other pattern on a shared axis.
      {"collision share (flows sharing a switch-to-switch cable), lower is better",
       [](const SchemeFigures& f) { return f.collision_share; }, true},
  };
  const std::size_t groups = cmp.patterns.size();
  const std::size_t schemes = groups ? cmp.patterns[0].schemes.size() : 0;
  const double bar_w = 22, group_gap = 30, left = 70, right = 20, top = 60, panel_h = 220, panel_gap = 70;
  const double plot_w = std::max(300.0, groups * (schemes * bar_w + group_gap));
  const double width = left + plot_w + right + 170;  // legend column on the right
  const double height = top + panels.size() * (panel_h + panel_gap);

  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(width) << "\" height=\""
    << num(height) << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect x=\"0\" y=\"0\" width=\"" << num(width) << "\" height=\"" << num(height) << "\" fill=\"white\"/>\n"
    << "<text x=\"" << num(left) << "\" y=\"28\" font-size=\"16\" font-weight=\"bold\">" << escape(title)
    << "</text>\n";

  for (std::size_t pi = 0; pi < panels.size(); ++pi) {
    const Panel& panel = panels[pi];
    const double y0 = top + pi * (panel_h + panel_gap);  // panel top
    const double base = y0 + panel_h;                    // x axis
    double vmax = 0;
    for (const auto& p : cmp.patterns)
      for (const auto& f : p.schemes) vmax = std::max(vmax, panel.value(f));
    const double ytop = panel.unit_range ? 1.0 : nice_top(vmax);
    s << "<g class=\"panel\">\n<text x=\"" << num(left) << "\" y=\"" << num(y0 - 10) << "\" font-weight=\"bold\">"
      << escape(panel.label) << "</text>\n";
    // Y axis: 5 intervals with grid lines and labels.
    for (int t = 0; t <= 5; ++t) {
      const double v = ytop * t / 5, y = base - panel_h * t / 5;
      s << "<line x1=\"" << num(left) << "\" y1=\"" << num(y) << "\" x2=\"" << num(left + plot_w) << "\" y2=\""
        << num(y) << "\" stroke=\"#dddddd\"/>\n"
        << "<text x=\"" << num(left - 6) << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">" << num(v)
        << "</text>\n";
    }
    s << "<line x1=\"" << num(left) << "\" y1=\"" << num(y0) << "\" x2=\"" << num(left) << "\" y2=\"" << num(base)
      << "\" stroke=\"black\"/>\n<line x1=\"" << num(left) << "\" y1=\"" << num(base) << "\" x2=\""
      << num(left + plot_w) << "\" y2=\"" << num(base) << "\" stroke=\"black\"/>\n";
    for (std::size_t g = 0; g < groups; ++g) {
      const auto& p = cmp.patterns[g];
      const double gx = left + group_gap / 2 + g * (schemes * bar_w + group_gap);
      for (std::size_t k = 0; k < p.schemes.size(); ++k) {
        const double v = panel.value(p.schemes[k]);
        const double h = ytop > 0 ? panel_h * std::min(v, ytop) / ytop : 0;
        s << "<rect x=\"" << num(gx + k * bar_w) << "\" y=\"" << num(base - h) << "\" width=\"" << num(bar_w - 2)
          << "\" height=\"" << num(h) << "\" fill=\"" << kColours[k % 5] << "\"><title>" << escape(p.name) << ", "
          << escape(p.schemes[k].name) << ": " << num(v) << "</title></rect>\n";
      }
      s << "<text x=\"" << num(gx + schemes * bar_w / 2) << "\" y=\"" << num(base + 16) << "\" text-anchor=\"middle\">"
        << escape(p.name) << "</text>\n";
    }
    s << "</g>\n";
  }
  // Legend: one swatch per scheme.
  const double lx = left + plot_w + 30;
  for (std::size_t k = 0; k < schemes; ++k) {
    const double ly = top + k * 20;
    s << "<rect x=\"" << num(lx) << "\" y=\"" << num(ly) << "\" width=\"14\" height=\"14\" fill=\"" << kColours[k % 5]
      << "\"/>\n<text x=\"" << num(lx + 20) << "\" y=\"" << num(ly + 11) << "\">"
      << escape(cmp.patterns[0].schemes[k].name) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace smd::roce
