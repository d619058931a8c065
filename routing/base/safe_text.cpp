#include "routing/base/safe_text.h"

#include <cstdint>

namespace smd {
namespace {

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/// Length of the well-formed UTF-8 sequence at text[at] (RFC 3629 section 4, Unicode table 3-7), 0 if
/// the byte there does not start one.
std::size_t sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const std::size_t left = text.size() - at;
  const unsigned char b0 = byte(0);
  if (b0 < 0x80) return 1;
  if (b0 >= 0xC2 && b0 <= 0xDF) return left >= 2 && continuation(byte(1)) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (left < 3 || !continuation(byte(1)) || !continuation(byte(2))) return 0;
    if (b0 == 0xE0 && byte(1) < 0xA0) return 0;  // overlong
    if (b0 == 0xED && byte(1) > 0x9F) return 0;  // UTF-16 surrogates
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (left < 4 || !continuation(byte(1)) || !continuation(byte(2)) || !continuation(byte(3))) return 0;
    if (b0 == 0xF0 && byte(1) < 0x90) return 0;  // overlong
    if (b0 == 0xF4 && byte(1) > 0x8F) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

/// Code point of the well-formed sequence of `length` bytes at text[at].
std::uint32_t code_point(std::string_view text, std::size_t at, std::size_t length) {
  const auto b0 = static_cast<unsigned char>(text[at]);
  std::uint32_t cp = length == 1 ? b0 : length == 2 ? (b0 & 0x1Fu) : length == 3 ? (b0 & 0x0Fu) : (b0 & 0x07u);
  for (std::size_t i = 1; i < length; ++i) cp = (cp << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3Fu);
  return cp;
}

/// Characters that change how a terminal or a log reader shows the text around them.
bool unprintable(std::uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

void append_hex_escape(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xF];
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = sequence_length(text, at);
    if (length == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      ++at;
      continue;
    }
    out.append(text.substr(at, length));
    at += length;
  }
  return out;
}

std::string printable_text(std::string_view text, bool escape_quote) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = sequence_length(text, at);
    if (length == 0 || unprintable(code_point(text, at, length))) {
      for (std::size_t i = 0; i < (length ? length : 1); ++i)
        append_hex_escape(out, static_cast<unsigned char>(text[at + i]));
      at += length ? length : 1;
      continue;
    }
    if (text[at] == '\\') {
      out += "\\\\";
    } else if (escape_quote && text[at] == '"') {
      out += "\\\"";
    } else {
      out.append(text.substr(at, length));
    }
    at += length;
  }
  return out;
}

std::string config_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool space_pending = false;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == ' ') {
      space_pending = !out.empty();
      continue;
    }
    if (space_pending) out += ' ';
    space_pending = false;
    if (c == '\\') {
      out += "\\\\";
    } else if (c > 0x20 && c < 0x7F) {
      out += ch;
    } else {
      append_hex_escape(out, c);
    }
  }
  return out;
}

std::string prometheus_label_value(std::string_view text) {
  std::string out;
  for (const char c : valid_utf8(text)) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string printable_lines(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    out += printable_text(text.substr(0, end));
    if (end == std::string_view::npos || end + 1 == text.size()) break;
    out += '\n';
    text.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace smd
