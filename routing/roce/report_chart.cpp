// report_chart: see report_chart.h.
#include "routing/roce/report_chart.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "routing/roce/figure_text.h"
#include "routing/roce/xml_text.h"

namespace smd::roce {
namespace {
constexpr double kLabelW = 230;  // the group labels' column
constexpr double kPlotW = 560;   // relative time 0 .. axis_max
constexpr double kBarH = 13, kBarGap = 2, kGroupGap = 14, kTop = 40, kLegendW = 150;

}  // namespace

double report_axis_max(const std::vector<CollectiveResult>& collectives) {
  double top = 1;
  for (const auto& c : collectives)
    for (const auto& f : c.schemes)
      if (std::isfinite(f.relative_time)) top = std::max(top, f.relative_time);
  const double p = std::pow(10.0, std::floor(std::log10(top)));
  for (double m : {1.0, 1.5, 2.0, 3.0, 5.0, 10.0}) {
    if (m * p >= top && m * p >= 1.5) return m * p;
  }
  return 10 * p;
}

std::string report_chart(const std::vector<CollectiveResult>& collectives, double axis_max,
                         const std::string& caption) {
  const double ppu = kPlotW / axis_max;
  std::size_t schemes = 0;
  for (const auto& c : collectives) schemes = std::max(schemes, c.schemes.size());
  const double group_h = static_cast<double>(schemes) * (kBarH + kBarGap) + kGroupGap;
  const double plot_h = static_cast<double>(collectives.size()) * group_h;
  const double width = kLabelW + kPlotW + 60 + kLegendW;
  const double height = kTop + plot_h + 40;
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"collectives-chart\" width=\"" << svg_px(width)
    << "\" height=\"" << svg_px(height) << "\" viewBox=\"0 0 " << svg_px(width) << " " << svg_px(height)
    << "\" font-family=\"sans-serif\" font-size=\"11\" data-px-per-unit=\"" << svg_px(ppu) << "\" data-axis-max=\""
    << axis_max << "\">\n"
    << "<text x=\"4\" y=\"16\" font-weight=\"bold\" font-size=\"13\">" << xml_escape(caption) << "</text>\n";
  const double x0 = kLabelW;
  const double base = kTop + plot_h;
  // Grid: ticks at tenths of the axis, the ideal as a dashed line.
  for (int t = 0; t <= 10; ++t) {
    const double v = axis_max * t / 10;
    const double x = x0 + v * ppu;
    s << "<line x1=\"" << svg_px(x) << "\" y1=\"" << svg_px(kTop - 4) << "\" x2=\"" << svg_px(x) << "\" y2=\""
      << svg_px(base) << "\" stroke=\"#e4e4e4\"/>\n<text x=\"" << svg_px(x) << "\" y=\"" << svg_px(base + 14)
      << "\" text-anchor=\"middle\">" << v << "</text>\n";
  }
  s << "<line class=\"ideal\" x1=\"" << svg_px(x0 + ppu) << "\" y1=\"" << svg_px(kTop - 8) << "\" x2=\""
    << svg_px(x0 + ppu) << "\" y2=\"" << svg_px(base) << "\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n"
    << "<text x=\"" << svg_px(x0 + ppu + 3) << "\" y=\"" << svg_px(kTop - 10)
    << "\">ideal (non-blocking fabric)</text>\n"
    << "<text x=\"" << svg_px(x0 + kPlotW / 2) << "\" y=\"" << svg_px(base + 30)
    << "\" text-anchor=\"middle\">completion time / ideal (linear from 0), shorter is better</text>\n";
  for (std::size_t i = 0; i < collectives.size(); ++i) {
    const auto& c = collectives[i];
    const double gy = kTop + static_cast<double>(i) * group_h;
    const std::string job = c.job == "all" ? std::string("whole fabric") : c.job;
    s << "<text x=\"4\" y=\"" << svg_px(gy + kBarH) << "\" font-weight=\"bold\">" << xml_escape(c.name) << "</text>\n"
      << "<text x=\"4\" y=\"" << svg_px(gy + 2 * kBarH + 2) << "\">" << xml_escape(job) << "</text>\n"
      << "<text x=\"4\" y=\"" << svg_px(gy + 3 * kBarH + 4) << "\" fill=\"#555555\">" << c.ranks << " ranks, "
      << c.leaves << " leaves</text>\n";
    for (std::size_t k = 0; k < c.schemes.size(); ++k) {
      const auto& f = c.schemes[k];
      const bool finite = std::isfinite(f.relative_time);
      const double len = finite ? f.relative_time * ppu : kPlotW;
      const double y = gy + static_cast<double>(k) * (kBarH + kBarGap);
      s << "<rect class=\"bar\" data-job=\"" << xml_escape(c.job) << "\" data-collective=\"" << xml_escape(c.name)
        << "\" data-scheme=\"" << xml_escape(f.name) << "\" data-value=\"" << relative_text(f.relative_time)
        << "\" x=\"" << svg_px(x0) << "\" y=\"" << svg_px(y) << "\" width=\"" << svg_px(len) << "\" height=\""
        << svg_px(kBarH) << "\" fill=\"" << (finite ? kSchemeColours[k % 5] : "#999999") << "\"><title>"
        << xml_escape(c.name + " (" + job + "), " + f.name + ": " + relative_text(f.relative_time) + " x ideal")
        << "</title></rect>\n<text x=\"" << svg_px(x0 + std::min(len, kPlotW) + 4) << "\" y=\"" << svg_px(y + kBarH - 2)
        << "\">" << relative_text(f.relative_time) << "</text>\n";
    }
  }
  // Legend: one swatch per scheme, names from the first collective (every one has the same schemes).
  if (!collectives.empty()) {
    const double lx = x0 + kPlotW + 60;
    for (std::size_t k = 0; k < collectives[0].schemes.size(); ++k) {
      const double ly = kTop + static_cast<double>(k) * 18;
      s << "<rect x=\"" << svg_px(lx) << "\" y=\"" << svg_px(ly) << "\" width=\"12\" height=\"12\" fill=\""
        << kSchemeColours[k % 5] << "\"/>\n<text x=\"" << svg_px(lx + 18) << "\" y=\"" << svg_px(ly + 10) << "\">"
        << xml_escape(collectives[0].schemes[k].name) << "</text>\n";
    }
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace smd::roce
