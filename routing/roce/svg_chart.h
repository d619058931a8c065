// SVG bar chart of a Comparison: one panel per figure, in each panel a group of bars per pattern and
// one bar per scheme, with a y axis (ticks and grid), pattern labels and a legend. Plain SVG 1.1 text
// (no script, no external fonts) so any browser opens it; the caller writes it to a file.
#pragma once

#include <string>

#include "routing/roce/compare.h"

namespace smd::roce {

/// The chart: panels "mean bottleneck share (eBB)", "max-min fair throughput" (higher is better) and
/// "collision share" (lower is better), all on a 0..1 axis. `title` goes on top (XML-escaped here).
std::string svg_chart(const Comparison& comparison, const std::string& title);

}  // namespace smd::roce
