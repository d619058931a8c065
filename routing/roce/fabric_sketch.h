// The report's picture of the fabric (report_html.h): the switches drawn small, one row per tier of the
// RoCE plan (clos_plan.h: leaves at the bottom, spines / cores above), every switch-to-switch cable a thin
// line, and the hottest cables of each scheme (hot_cables.h) marked in the scheme's colour. Hosts are
// not drawn (a count is): at 1728 hosts they would be a grey band. With the plan after a loss, the cables
// it no longer has are drawn dashed red. Plain SVG 1.1, no script.
#pragma once

#include <string>
#include <vector>

#include "routing/roce/clos_plan.h"
#include "routing/roce/hot_cables.h"

namespace smd::roce {

/// One marked cable: the scheme (index into the Scheme order, for its colour, and name) and the cable.
struct SketchMark {
  std::size_t scheme = 0;
  std::string scheme_name;
  HotCable cable;
};

/// The sketch as an <svg> element (no XML declaration). Each mark is a <line class="hot"> with
/// data-scheme, data-from, data-from-port, data-to, data-to-port and data-load (names as xml_name
/// writes them); a lost cable a <line class="lost"> with data-from, data-from-port, data-to,
/// data-to-port. A mark whose switches are not in `plan` is left out. `after` null: no lost cables.
std::string fabric_sketch(const RoutePlan& plan, const RoutePlan* after, const std::vector<SketchMark>& marks,
                          const std::string& caption);

}  // namespace smd::roce
