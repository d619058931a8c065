#include "routing/engines/common/switch_port_files.h"

#include <map>
#include <utility>

#include "routing/base/word_lines.h"
#include "routing/model/topology.h"

namespace smd {
namespace {

/// `w` as 0x hex or decimal, at most `max`; false when it is not such a number.
bool parse_number(std::string_view w, std::uint64_t max, std::uint64_t& out) {
  unsigned base = 10;
  if (w.size() > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
    base = 16;
    w.remove_prefix(2);
  }
  if (w.empty()) return false;
  out = 0;
  for (char c : w) {
    unsigned d = 0;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      d = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return false;
    }
    if (out > (max - d) / base) return false;
    out = out * base + d;
  }
  return true;
}


/// The switch GUID that starts every line.
Result<Guid> take_guid(const WordLines& in, const LineWord& w) {
  std::uint64_t guid = 0;
  if (!parse_number(w.text, ~std::uint64_t{0}, guid)) {
    return in.error(w.column, quoted_word(w.text) + " is not a switch GUID (0x hex or decimal)");
  }
  if (guid == 0) return in.error(w.column, "GUID 0 is not a switch GUID");
  return guid;
}

/// A port number 1..254 (255 is no port in an LFT, 0 the switch itself).
Result<PortNum> take_port(const WordLines& in, const LineWord& w) {
  std::uint64_t port = 0;
  if (!parse_number(w.text, 0xFFFF, port) || port == 0 || port > 254) {
    return in.error(w.column, quoted_word(w.text) + " is not a port number 1..254");
  }
  return static_cast<PortNum>(port);
}

/// "(switch, port) listed twice" for per-port files; `seen` maps it to its first line.
Status check_fresh(const WordLines& in, std::map<std::pair<Guid, PortNum>, std::size_t>& seen, Guid sw, PortNum port,
                   std::size_t column) {
  auto [it, fresh] = seen.try_emplace({sw, port}, in.line_no());
  if (fresh) return Ok{};
  return in.error(column, "port " + std::to_string(port) + " of switch " + format_guid(sw) +
                              " is listed twice (first at line " + std::to_string(it->second) + ")");
}

/// Lines of exactly `count` words after the GUID, else an error naming `format`.
Status expect_words(const WordLines& in, const std::vector<LineWord>& words, std::size_t count, const char* format) {
  if (words.size() < count + 1) return in.error(column_after(words), std::string("missing a word (format: ") + format + ")");
  if (words.size() > count + 1) {
    return in.error(words[count + 1].column,
                    "unexpected " + quoted_word(words[count + 1].text) + " (format: " + format + ")");
  }
  return Ok{};
}

/// The switch port that starts a line of the GUID, a port and `extra` more words (`format`); a pair listed
/// twice in one file is an error at the second line.
Result<SwitchPort> take_switch_port(const WordLines& in, const std::vector<LineWord>& words, std::size_t extra,
                                    const char* format, std::map<std::pair<Guid, PortNum>, std::size_t>& seen) {
  auto guid = take_guid(in, words[0]);
  if (!guid.ok()) return guid.error();
  if (auto st = expect_words(in, words, 1 + extra, format); !st.ok()) return st.error();
  auto port = take_port(in, words[1]);
  if (!port.ok()) return port.error();
  if (auto st = check_fresh(in, seen, *guid, *port, words[1].column); !st.ok()) return st.error();
  return SwitchPort{*guid, *port};
}

}  // namespace

Result<std::vector<HopWeight>> parse_hop_weights(std::string_view text, const std::string& source) {
  constexpr const char* kFormat = "<switch guid> <port> <weight>";
  WordLines in(text, source);
  std::vector<LineWord> words;
  std::map<std::pair<Guid, PortNum>, std::size_t> seen;
  std::vector<HopWeight> out;
  while (in.next(words)) {
    auto at = take_switch_port(in, words, 1, kFormat, seen);
    if (!at.ok()) return at.error();
    std::uint64_t weight = 0;
    if (!parse_number(words[2].text, 0xFFFF, weight) || weight == 0 || weight > 255) {
      return in.error(words[2].column, quoted_word(words[2].text) + " is not a hop weight 1..255");
    }
    out.push_back({at->sw, at->port, static_cast<std::uint8_t>(weight)});
  }
  return out;
}

Result<std::vector<PortSearchOrder>> parse_port_search_ordering(std::string_view text, const std::string& source) {
  WordLines in(text, source);
  std::vector<LineWord> words;
  std::map<Guid, std::size_t> first_line;
  std::vector<PortSearchOrder> out;
  while (in.next(words)) {
    auto guid = take_guid(in, words[0]);
    if (!guid.ok()) return guid.error();
    if (auto [it, fresh] = first_line.try_emplace(*guid, in.line_no()); !fresh) {
      return in.error(words[0].column, "switch " + format_guid(*guid) + " is listed twice (first at line " +
                                           std::to_string(it->second) + ")");
    }
    if (words.size() < 2) return in.error(column_after(words), "missing a port (format: <switch guid> <port> <port> ...)");
    PortSearchOrder line{*guid, {}};
    std::vector<std::uint8_t> listed(256, 0);
    for (std::size_t i = 1; i < words.size(); ++i) {
      auto port = take_port(in, words[i]);
      if (!port.ok()) return port.error();
      if (listed[*port]) return in.error(words[i].column, "port " + std::to_string(*port) + " is listed twice");
      listed[*port] = 1;
      line.ports.push_back(*port);
    }
    out.push_back(std::move(line));
  }
  return out;
}

Result<std::vector<SwitchPort>> parse_port_prof_ignore(std::string_view text, const std::string& source) {
  WordLines in(text, source);
  std::vector<LineWord> words;
  std::map<std::pair<Guid, PortNum>, std::size_t> seen;
  std::vector<SwitchPort> out;
  while (in.next(words)) {
    auto at = take_switch_port(in, words, 0, "<switch guid> <port>", seen);
    if (!at.ok()) return at.error();
    out.push_back(*at);
  }
  return out;
}

}  // namespace smd
