// SVG bar chart of a Comparison: one panel per figure, in each panel a group of bars per collective or
// pattern and one bar per scheme, with a y axis (ticks and grid), group labels and a legend. Plain SVG 1.1 text
// (no script, no external fonts) so any browser opens it; the caller writes it to a file.
#pragma once

#include <string>

#include "routing/roce/compare.h"

namespace smd::roce {

/// The chart: first, when the comparison has collectives, their completion time relative to ideal on a
/// log axis from 1; then the patterns' "mean bottleneck share (eBB)", "max-min fair throughput" (higher
/// is better) and "collision share" (lower is better) on a 0..1 axis. Every bar is at least 2 px tall
/// and carries its value, so a per-flow share of 1/511 (all-to-all) still reads. `title` goes on top
/// (XML-escaped here).
std::string svg_chart(const Comparison& comparison, const std::string& title);

}  // namespace smd::roce
