// The words of the comparison's report (report_html.h): what changed and why, written from the numbers
// of a Comparison (and of the one after a loss), never canned. Each finding is one plain-text paragraph
// (the HTML writer escapes it); fabric names go through printable_text. Also which result the report's
// fabric sketch marks the hottest cables of (the focus), so the picture and the words name the same.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "routing/roce/compare.h"
#include "routing/roce/fabric_sketch.h"

namespace smd::roce {

/// The result whose hottest cables the sketch marks: the collective whose schemes differ most (largest
/// ratio of the slowest finite relative time to the fastest; the first on ties), else, without
/// collectives, the pattern whose max switch-cable loads differ most. `none` when there is neither.
struct ReportFocus {
  enum class Kind { kNone, kCollective, kPattern } kind = Kind::kNone;
  std::size_t index = 0;  ///< into Comparison::collectives or ::patterns
};
ReportFocus report_focus(const Comparison& comparison);

/// "ring-allreduce (job fragmented:512,0.5,across)", "alltoall (whole fabric)", "pattern shift".
std::string focus_label(const Comparison& comparison, ReportFocus focus);

/// The focus's hottest cables under every scheme, in scheme order, as the sketch marks them.
std::vector<SketchMark> focus_marks(const Comparison& comparison, ReportFocus focus);

/// "FROM[P] -> TO[Q]": a hot cable as the text names it (printable names).
std::string cable_text(const HotCable& cable);

/// What the figures say, one paragraph each: per collective which scheme is slowest and which reach
/// what, and the hottest cable behind the slowest; the collectives every scheme runs alike; the focus's
/// hottest cables under every scheme (every cable the sketch marks); per pattern the spread of max-min
/// throughput and of the max switch-cable load; and with `after` (the comparison after losing
/// `loss_text`, IB's tables made as `ib_tables` says) every figure the loss changed, the flows it left
/// without a route and the hottest cables after.
std::vector<std::string> report_findings(const Comparison& before, const Comparison* after,
                                         const std::string& loss_text, const std::string& ib_tables);

}  // namespace smd::roce
