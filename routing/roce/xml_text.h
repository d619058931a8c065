// What every SVG and HTML writer of the comparison shares: text escaped for XML, numbers in a fixed
// short form, and the scheme colours, so the charts, the fabric sketch and the report agree.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "routing/base/safe_text.h"

namespace smd::roce {

/// Colour-blind-safe palette (Okabe & Ito 2008), one colour per scheme in Scheme order.
inline constexpr const char* kSchemeColours[] = {"#0072B2", "#009E73", "#D55E00", "#CC79A7", "#E69F00"};

/// `s` safe inside XML text and double-quoted attributes (HTML too): the five markup characters
/// escaped. Fabric names go through printable_text first (xml_name), since XML 1.0 forbids most
/// control characters even escaped.
inline std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

/// A NodeDescription (any 64 bytes) for XML: printable_text's `\xNN` for control and non-UTF-8 bytes,
/// then xml_escape.
inline std::string xml_name(std::string_view name) { return xml_escape(printable_text(name)); }

/// A coordinate or length: three decimals, enough for sub-pixel checks, never an exponent.
inline std::string svg_px(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace smd::roce
