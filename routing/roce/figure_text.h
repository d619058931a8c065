// How the comparison's figures read in text, SVG and HTML: one rule per kind of number, so the report, the
// chart and the before/after table print the same figure the same way.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace smd::roce {

/// A time relative to ideal (or any figure near 1): three decimals; "unrouted" when the collective never
/// ends (a rank cut off, a flow without a route).
inline std::string relative_text(double v) {
  if (!std::isfinite(v)) return "unrouted";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

/// "+12.5%" from `before` to `after`; "-" when either is not finite or `before` is 0.
inline std::string change_text(double before, double after) {
  if (!std::isfinite(before) || !std::isfinite(after) || before == 0) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%+.1f%%", 100.0 * (after - before) / before);
  return buf;
}

/// A share of line rate: three decimals, or four significant digits below 0.1 (an all-to-all's 1/511).
inline std::string share_text(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, v < 0.1 ? "%.4g" : "%.3f", v);
  return buf;
}

/// A load in flows: whole numbers without decimals, fractions (QPs, sprayed flows) with three.
inline std::string load_text(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, v == std::floor(v) ? "%.0f" : "%.3f", v);
  return buf;
}

}  // namespace smd::roce
