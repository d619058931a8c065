#include "config/yaml_scalar.h"

#include <cstdint>
#include <cstdio>

#include "routing/base/safe_text.h"

namespace smd {
namespace {

/// Length of the UTF-8 sequence that starts with `lead` (the text is known valid).
std::size_t utf8_sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

std::uint32_t utf8_code_point(std::string_view s) {
  const auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i])); };
  switch (s.size()) {
    case 1: return b(0);
    case 2: return (b(0) & 0x1F) << 6 | (b(1) & 0x3F);
    case 3: return (b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
    default: return (b(0) & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
  }
}

bool yaml_needs_escape(std::uint32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 || c == 0xFEFF ||
         c == 0xFFFE || c == 0xFFFF;
}

}  // namespace

Result<std::string> yaml_double_quoted(std::string_view text) {
  const std::string checked = valid_utf8(text);
  if (checked != text) {
    std::size_t at = 0;
    while (at < text.size() && at < checked.size() && text[at] == checked[at]) ++at;
    return make_error(ErrorCode::kInvalidInput,
                      "not valid UTF-8 at byte " + std::to_string(at) + ": a YAML scalar holds characters, not bytes");
  }
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(static_cast<unsigned char>(text[i]));
    const std::string_view seq = text.substr(i, n);
    const std::uint32_t c = utf8_code_point(seq);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (yaml_needs_escape(c)) {
      char escaped[16];  // room for "\\u" and the 8 hex digits an unsigned may need, as -Wformat-truncation counts
      if (c < 0x80) {
        std::snprintf(escaped, sizeof escaped, "\\x%02X", static_cast<unsigned>(c));
      } else {
        std::snprintf(escaped, sizeof escaped, "\\u%04X", static_cast<unsigned>(c));
      }
      out += escaped;
    } else {
      out += seq;
    }
    i += n;
  }
  return out + "\"";
}

}  // namespace smd
