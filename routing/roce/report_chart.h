// The report's first chart (report_html.h): every collective's completion time relative to ideal as a
// horizontal bar per scheme, on a linear axis from 0 with the ideal (1) drawn as a line. Why linear from
// 0: a bar's length is then proportional to the time, every bar is at least one ideal long (never
// zero), and "twice as long" reads as "takes twice as long"; the log axis of svg_chart.h draws a
// collective at ideal as nothing. Plain SVG 1.1, no script.
#pragma once

#include <string>
#include <vector>

#include "routing/roce/collective_eval.h"

namespace smd::roce {

/// The axis end for these collectives: the smallest of 1, 1.5, 2, 3, 5 times a power of ten at or above the
/// largest finite relative time (at least 1.5, so the ideal line sits inside the plot).
double report_axis_max(const std::vector<CollectiveResult>& collectives);

/// The chart as an <svg> element (no XML declaration, for inlining in HTML). The root carries
/// data-px-per-unit (bar length in px of relative time 1); each bar is a <rect class="bar"> with
/// data-job, data-collective, data-scheme and data-value (the relative time, or "unrouted" for a
/// collective with an unrouted flow, drawn full length in grey), its width value x px-per-unit.
/// `axis_max` from report_axis_max (the larger of two charts' to share one scale); `caption` on top.
std::string report_chart(const std::vector<CollectiveResult>& collectives, double axis_max, const std::string& caption);

}  // namespace smd::roce
