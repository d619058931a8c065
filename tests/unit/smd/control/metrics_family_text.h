// One family's lines out of a whole scrape, for tests that look at a few families of render_metrics().
#pragma once

#include <string>

namespace smd {

/// The text from "# HELP <family> " up to the next family's HELP line (or the end); "" when the family is
/// not there.
inline std::string family_text(const std::string& text, const std::string& family) {
  const std::size_t at = text.find("# HELP " + family + " ");
  if (at == std::string::npos) return "";
  const std::size_t next = text.find("# HELP ", at + 1);
  return text.substr(at, next == std::string::npos ? std::string::npos : next - at);
}

}  // namespace smd
