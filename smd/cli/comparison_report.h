// `smd plan --report FILE.html`: the IB-vs-RoCE comparison as one page a person reads (docs/roce.md,
// "The report"). One self-contained HTML file: inline SVG, inline CSS, no script and nothing fetched.
// In order: the collectives' time relative to ideal (routing/roce/report_chart.h; with --fail the chart
// after the loss below it on the same scale), what changed and why (routing/roce/report_text.h), the
// fabric drawn small with the hottest cables of each scheme marked (routing/roce/fabric_sketch.h), every
// figure as svg_chart.h draws it, and the comparison JSON (`--format json`'s roce.comparison and
// roce.after_loss) in a non-executed <script type="application/json" id="comparison-json">.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "routing/roce/clos_plan.h"
#include "routing/roce/compare.h"

namespace smd {

/// What the report shows. Borrowed for the call; `after`, `after_plan` null without a loss.
struct ComparisonReportInput {
  std::string title;
  const roce::Comparison* before = nullptr;
  const roce::Comparison* after = nullptr;
  const roce::RoutePlan* plan = nullptr;        ///< the RoCE plan before (the sketch's switches and tiers)
  const roce::RoutePlan* after_plan = nullptr;  ///< the plan after the loss (its missing cables drawn lost)
  std::string loss_text;                        ///< the failed parts, as failed_parts_text gives them
  std::string ib_tables_after;                  ///< how ib-static's tables after were made (FabricLoss made_by)
  std::string details_svg;                      ///< svg_chart (or svg_stack) document of every figure
  /// --collectives as given ("none", "" or a list): when no collective was timed the page says which was
  /// asked, and for a list that every collective of it was left out (before's notes say why).
  std::string collectives_asked = "none";
  nlohmann::ordered_json json;                  ///< {"comparison": ..., "after_loss"?: ...}
};

/// The HTML page. Pure: the caller writes it (write_file_atomic).
std::string comparison_report_html(const ComparisonReportInput& input);

}  // namespace smd
