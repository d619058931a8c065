#include "routing/engines/file/lfts_dump.h"

#include <cctype>
#include <unordered_set>

#include "routing/base/hex_text.h"

namespace smd {
namespace {

constexpr std::string_view kHeader = "Unicast lids [";
constexpr std::string_view kTrailer = " lids dumped";

/// One line being read left to right; `pos` is 0-based, columns in messages 1-based.
struct LineCursor {
  std::string_view text;
  std::size_t pos = 0;

  DumpPlace at(unsigned line) const { return {line, static_cast<unsigned>(pos + 1)}; }
  bool take(std::string_view word) {
    if (text.substr(pos, word.size()) != word) return false;
    pos += word.size();
    return true;
  }
  void skip_blanks() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t')) ++pos;
  }
  /// Decimal digits as a number; false when there are none or it exceeds `max`.
  bool decimal(std::uint64_t max, std::uint64_t& out) {
    const std::size_t start = pos;
    out = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      out = out * 10 + static_cast<unsigned>(text[pos] - '0');
      if (out > max) return false;
      ++pos;
    }
    return pos > start;
  }
  /// "0x" and 1..`digits` hex digits as a number.
  bool hex(std::size_t digits, std::uint64_t& out) {
    if (!take("0x")) return false;
    const std::size_t start = pos;
    out = 0;
    while (pos < text.size() && pos - start < digits + 1 && std::isxdigit(static_cast<unsigned char>(text[pos]))) {
      const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text[pos])));
      out = out * 16 + static_cast<unsigned>(c <= '9' ? c - '0' : c - 'a' + 10);
      ++pos;
    }
    return pos > start && pos - start <= digits;
  }
  bool at_end() const { return pos >= text.size(); }
};

Error bad(const std::string& source, DumpPlace at, const std::string& message) {
  return make_error(ErrorCode::kInvalidInput, dump_message(source, at, message));
}

/// "Unicast lids [0-<top>] of switch ... guid 0x<16 hex> ...": the section's switch and top.
Result<DumpSwitch> read_header(LineCursor c, unsigned line, const std::string& source) {
  DumpSwitch sw;
  c.take(kHeader);
  if (!c.take("0-")) return bad(source, c.at(line), "expected \"0-<top>]\" after \"Unicast lids [\"");
  sw.top_at = c.at(line);
  std::uint64_t top = 0;
  if (!c.decimal(kMaxUnicastLid, top)) {
    return bad(source, sw.top_at, "top LID must be a decimal number 0.." + std::to_string(kMaxUnicastLid));
  }
  sw.top = static_cast<Lid>(top);
  if (!c.take("]")) return bad(source, c.at(line), "expected ']' after the top LID");
  // OpenSM and smd write the switch's own LID here; it tells whether the fabric kept the dump's LIDs.
  if (c.take(" of switch Lid ")) {
    sw.lid_at = c.at(line);
    std::uint64_t lid = 0;
    if (!c.decimal(kMaxUnicastLid, lid) || lid == 0) {
      return bad(source, sw.lid_at, "switch LID must be a decimal number 1.." + std::to_string(kMaxUnicastLid));
    }
    sw.lid = static_cast<Lid>(lid);
  }
  const std::size_t guid = c.text.find(" guid ", c.pos);
  if (guid == std::string_view::npos) return bad(source, c.at(line), "section header has no \"guid 0x...\"");
  c.pos = guid + 6;
  sw.guid_at = c.at(line);
  std::uint64_t value = 0;
  if (!c.hex(16, value) || (!c.at_end() && c.text[c.pos] != ' ')) {
    return bad(source, sw.guid_at, "switch GUID must be 0x and 1..16 hex digits");
  }
  if (value == 0) return bad(source, sw.guid_at, "switch GUID 0 names no switch");
  sw.guid = value;
  return sw;
}

/// "0x<LID> <port> [# ...]" into `sw`, checked against its top and its earlier rows.
Status read_route(LineCursor c, unsigned line, const std::string& source, DumpSwitch& sw,
                  std::unordered_set<Lid>& seen) {
  DumpRoute route;
  route.lid_at = c.at(line);
  std::uint64_t lid = 0;
  if (!c.hex(4, lid) || c.at_end() || c.text[c.pos] != ' ') {
    return bad(source, route.lid_at, "LID must be 0x and 1..4 hex digits, then a space");
  }
  // LFT entry 0 forwards nothing (LID 0 is reserved, IBA 4.1.3); OpenSM's dump starts at LID 1.
  if (lid == 0 || lid > kMaxUnicastLid) {
    return bad(source, route.lid_at, "LID " + hex_text(lid, 4) + " is not a unicast LID (0x0001..0xbfff)");
  }
  if (lid > sw.top) {
    return bad(source, route.lid_at,
               "LID " + hex_text(lid, 4) + " is above this switch's top " + std::to_string(sw.top) + " (line " +
                   std::to_string(sw.top_at.line) + ")");
  }
  if (!seen.insert(static_cast<Lid>(lid)).second) {
    return bad(source, route.lid_at, "LID " + hex_text(lid, 4) + " is listed twice for this switch");
  }
  c.skip_blanks();
  route.port_at = c.at(line);
  std::uint64_t port = 0;
  if (!c.decimal(kNoPort - 1, port)) {
    return bad(source, route.port_at, "port must be a decimal number 0..254");
  }
  c.skip_blanks();
  if (!c.at_end() && c.text[c.pos] != '#') {
    return bad(source, c.at(line), "unexpected text after the port (a comment starts with '#')");
  }
  route.lid = static_cast<Lid>(lid);
  route.port = static_cast<PortNum>(port);
  sw.routes.push_back(route);
  return Ok{};
}

bool is_trailer(std::string_view line) {
  if (line.size() <= kTrailer.size() || line.substr(line.size() - kTrailer.size()) != kTrailer) return false;
  for (char c : line.substr(0, line.size() - kTrailer.size())) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

std::string dump_message(const std::string& source, DumpPlace at, const std::string& message) {
  return source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + message;
}

Result<LftsDump> parse_lfts_dump(std::string_view text, std::string source) {
  LftsDump dump;
  dump.source = std::move(source);
  std::unordered_set<Guid> guids;
  std::unordered_set<Lid> seen;
  unsigned line_no = 0;
  bool open = false;  // between a header and its "<n> lids dumped"
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    if (is_trailer(line)) {
      open = false;
      continue;
    }
    LineCursor c{line};
    if (line.starts_with(kHeader)) {
      auto sw = read_header(c, line_no, dump.source);
      if (!sw) return sw.error();
      if (!guids.insert(sw->guid).second) {
        return bad(dump.source, sw->guid_at, "switch " + hex64_text(sw->guid) + " has a second section");
      }
      dump.switches.push_back(std::move(sw).value());
      seen.clear();
      open = true;
      continue;
    }
    if (line.starts_with("0x")) {
      if (!open) {
        return bad(dump.source, c.at(line_no),
                   "route outside a section (before its \"Unicast lids\" header or after \"<n> lids dumped\")");
      }
      if (Status st = read_route(c, line_no, dump.source, dump.switches.back(), seen); !st.ok()) return st.error();
      continue;
    }
    return bad(dump.source, c.at(line_no),
               "not a line of opensm-lfts.dump (a \"Unicast lids\" header, a \"0x<LID> <port>\" route or "
               "\"<n> lids dumped\")");
  }
  if (dump.switches.empty()) {
    return bad(dump.source, DumpPlace{line_no == 0 ? 1 : line_no, 1},
               "no \"Unicast lids\" section: not an opensm-lfts.dump");
  }
  return dump;
}

}  // namespace smd
