#include "config/qos_policy_conf.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <type_traits>

#include "config/yaml_fields.h"
#include "routing/base/hex_text.h"

namespace smd {

// The parser's own names, apart from partitions.conf's parser (Failure, Parser) and the rest of the library
// with which a unity build compiles this file.
namespace qos_policy_conf {
namespace {

/// GUIDs one port group may list (config/qos_section.cpp's bound) and P_Keys one level may list.
constexpr std::uint64_t kMaxGroupGuids = 4096;
constexpr std::uint64_t kMaxLevelPkeys = 256;

// OpenSM's ULP service IDs (QoS_management_in_OpenSM.txt 6.2-6.4): SDP 0x1PPPP, RDS and iSER 0x106PPPP.
constexpr std::uint64_t kSdpServiceBase = 0x10000;
constexpr std::uint64_t kRdsIserServiceBase = 0x1060000;
constexpr std::uint64_t kRdsDefaultPort = 0x48ca;
constexpr std::uint64_t kIserDefaultPort = 0x0cbc;

/// A failure: where and why (the caller prefixes the source name).
struct Failure {
  int line = 0;
  int column = 0;
  std::string message;
};

/// One non-blank line without its comment: its keyword (before the first ':' for key lines, the whole
/// word for section lines), the value after ':', and where each starts.
struct Line {
  int number = 0;
  int column = 1;  ///< of the first non-blank
  std::string text;
  std::string key;    ///< lower case, trimmed
  std::string value;  ///< trimmed
  int value_column = 1;
  bool has_colon = false;
};

// A line quoted in an error, cut so a binary or run-on line does not flood the terminal.
std::string excerpt(std::string_view text) {
  constexpr std::size_t kMaxQuoted = 80;
  return text.size() <= kMaxQuoted ? std::string(text) : std::string(text.substr(0, kMaxQuoted)) + "...";
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// A value and where it starts in its line.
struct Piece {
  std::string text;
  int column = 1;
};

/// `text` (starting at `column`) split at `sep`, each piece trimmed, empty pieces kept (the caller refuses
/// them with their position).
std::vector<Piece> split(const std::string& text, int column, char sep) {
  std::vector<Piece> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = std::min(text.find(sep, start), text.size());
    std::size_t a = start;
    std::size_t b = end;
    while (a < b && std::isspace(static_cast<unsigned char>(text[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(text[b - 1]))) --b;
    out.push_back({text.substr(a, b - a), column + static_cast<int>(a)});
    if (end == text.size()) return out;
    start = end + 1;
  }
}

/// The parse of one file: lines in, the spec and its warnings out, the first failure ends it.
class Parser {
  /// Where a name was defined or referred to.
  struct Positioned {
    int line = 0;
    int column = 0;
  };

 public:
  Parser(const std::string& source, const PartitionsSpec& partitions) : source_(source), partitions_(partitions) {}

  std::optional<Failure> run(std::string_view text) {
    split_lines(text);
    while (next_ < lines_.size()) {
      const Line& l = lines_[next_++];
      std::optional<Failure> f;
      if (l.key == "port-groups" && !l.has_colon) {
        f = block_list(l, "port-group", "end-port-groups", [this](const Line& at) { return port_group(at); });
      } else if (l.key == "qos-levels" && !l.has_colon) {
        f = block_list(l, "qos-level", "end-qos-levels", [this](const Line& at) { return level(at); });
      } else if (l.key == "qos-match-rules" && !l.has_colon) {
        f = block_list(l, "qos-match-rule", "end-qos-match-rules", [this](const Line& at) { return rule(at); });
      } else if (l.key == "qos-setup" && !l.has_colon) {
        f = skip_setup(l);
      } else if (l.key == "qos-ulps" && !l.has_colon) {
        f = ulps(l);
      } else {
        f = fail(l, l.column,
                 "expected a section (port-groups, qos-setup, qos-levels, qos-match-rules, qos-ulps), got '" +
                     excerpt(l.text) + "'");
      }
      if (f) return f;
    }
    return finish();
  }

  QosPolicyImport result;

 private:
  std::string at(int line, int column) const {
    return source_ + ":" + std::to_string(line) + ":" + std::to_string(column);
  }
  Failure fail(const Line& l, int column, std::string message) const {
    return Failure{l.number, column, std::move(message)};
  }
  void warn(const Line& l, int column, const std::string& message) {
    result.warnings.push_back(at(l.number, column) + ": " + message);
  }

  void split_lines(std::string_view text) {
    int number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
      const std::size_t end = std::min(text.find('\n', start), text.size());
      ++number;
      std::string raw(text.substr(start, end - start));
      if (const std::size_t hash = raw.find('#'); hash != std::string::npos) raw.resize(hash);
      for (char& c : raw) {
        if (c == '\t' || c == '\r') c = ' ';
      }
      const std::size_t first = raw.find_first_not_of(' ');
      if (first != std::string::npos) {
        Line l;
        l.number = number;
        l.column = static_cast<int>(first) + 1;
        l.text = raw.substr(first, raw.find_last_not_of(' ') - first + 1);
        const std::size_t colon = l.text.find(':');
        l.has_colon = colon != std::string::npos;
        l.key = lower(piece_trim(l.text.substr(0, l.has_colon ? colon : l.text.size())));
        if (l.has_colon) {
          const std::string rest = l.text.substr(colon + 1);
          const std::size_t v = rest.find_first_not_of(' ');
          l.value = v == std::string::npos ? "" : rest.substr(v, rest.find_last_not_of(' ') - v + 1);
          l.value_column = l.column + static_cast<int>(colon + 1 + (v == std::string::npos ? 0 : v));
        }
        lines_.push_back(std::move(l));
      }
      if (end == text.size()) break;
      start = end + 1;
    }
  }

  static std::string piece_trim(const std::string& s) {
    const std::size_t a = s.find_first_not_of(' ');
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(' ') - a + 1);
  }

  /// `open` ... `close` holding `item` ... end-`item` blocks, each handed to `body` at its first line.
  template <typename Body>
  std::optional<Failure> block_list(const Line& open, const std::string& item, const std::string& close, Body body) {
    while (next_ < lines_.size()) {
      const Line& l = lines_[next_++];
      if (l.key == close && !l.has_colon) return std::nullopt;
      if (l.key != item || l.has_colon) {
        return fail(l, l.column, "expected '" + item + "' or '" + close + "', got '" + excerpt(l.text) + "'");
      }
      if (auto f = body(l)) return f;
    }
    return fail(open, open.column, "'" + open.key + "' is never closed by '" + close + "'");
  }

  /// The key lines of one block up to end-`item`; each handed to `field`.
  template <typename Field>
  std::optional<Failure> block(const Line& open, Field field) {
    const std::string close = "end-" + open.key;
    while (next_ < lines_.size()) {
      const Line& l = lines_[next_++];
      if (l.key == close && !l.has_colon) return std::nullopt;
      if (!l.has_colon) return fail(l, l.column, "expected 'key: value' or '" + close + "', got '" + excerpt(l.text) + "'");
      if (l.value.empty()) return fail(l, l.value_column, l.key + ": missing value");
      if (auto f = field(l)) return f;
    }
    return fail(open, open.column, "'" + open.key + "' is never closed by '" + close + "'");
  }

  // --- numbers and ranges -------------------------------------------------------------------------------

  std::optional<Failure> number(const Line& l, const Piece& p, std::uint64_t max, std::uint64_t& out) const {
    if (p.text.empty()) return fail(l, p.column, l.key + ": empty value in a list");
    Result<std::uint64_t> v = parse_unsigned(p.text);
    if (!v.ok()) return fail(l, p.column, l.key + ": '" + p.text + "': " + v.error().message);
    if (*v > max) return fail(l, p.column, l.key + ": " + p.text + " is above " + std::to_string(max));
    out = *v;
    return std::nullopt;
  }

  /// "a" or "a-b" (a <= b).
  std::optional<Failure> range(const Line& l, const Piece& p, std::uint64_t max, QosRange& out) const {
    const std::size_t dash = p.text.find('-');
    if (dash == std::string::npos) {
      if (auto f = number(l, p, max, out.first)) return f;
      out.last = out.first;
      return std::nullopt;
    }
    const std::string a = piece_trim(p.text.substr(0, dash));
    const std::string b = piece_trim(p.text.substr(dash + 1));
    if (auto f = number(l, {a, p.column}, max, out.first)) return f;
    if (auto f = number(l, {b, p.column + static_cast<int>(dash) + 1}, max, out.last)) return f;
    if (out.first > out.last) return fail(l, p.column, l.key + ": empty range '" + p.text + "'");
    return std::nullopt;
  }

  std::optional<Failure> ranges(const Line& l, const std::string& text, int column, std::uint64_t max,
                                std::vector<QosRange>& out) const {
    for (const Piece& p : split(text, column, ',')) {
      QosRange r;
      if (auto f = range(l, p, max, r)) return f;
      out.push_back(r);
    }
    return std::nullopt;
  }

  /// P_Key ranges as bases: bit 15 (membership) does not take part in matching, as in OpenSM.
  std::optional<Failure> pkey_ranges(const Line& l, const std::string& text, int column, std::vector<QosRange>& out) {
    std::vector<QosRange> raw;
    if (auto f = ranges(l, text, column, 0xffff, raw)) return f;
    for (QosRange r : raw) {
      if ((r.first | r.last) & 0x8000) {
        warn(l, column,
             "P_Key " + hex_text(r.first, 4) + (r.first == r.last ? "" : "-" + hex_text(r.last, 4)) +
                 ": bit 15 (membership) is not part of a match; its low 15 bits are used");
        if (r.last - r.first >= 0x7fff) {
          r = {0, 0x7fff};
        } else {
          r = {r.first & 0x7fff, r.last & 0x7fff};
          if (r.first > r.last) r = {0, 0x7fff};  // the range wrapped over 0x7fff: all of them
        }
      }
      // P_Key 0 is invalid (IBA 10.9.1): no query carries it, so a range starts at 1.
      if (r.first == 0) r.first = 1;
      if (r.last == 0) {
        warn(l, column, "P_Key 0x0000 is invalid and matches no query: not carried");
        continue;
      }
      out.push_back(r);
    }
    return std::nullopt;
  }

  /// GUID values and ranges listed out; a range too large to list is dropped with a warning.
  std::optional<Failure> guid_list(const Line& l, const std::string& text, int column, std::vector<Guid>& out) {
    std::vector<QosRange> raw;
    if (auto f = ranges(l, text, column, UINT64_MAX, raw)) return f;
    for (const QosRange& r : raw) {
      if (r.first == 0) return fail(l, column, l.key + ": GUID 0 is not a port GUID");
      if (r.last - r.first >= kMaxGroupGuids || out.size() + (r.last - r.first + 1) > kMaxGroupGuids) {
        warn(l, column,
             l.key + ": " + hex_text(r.first, 16) + "-" + hex_text(r.last, 16) +
                 " has too many GUIDs for a port group (at most " + std::to_string(kMaxGroupGuids) +
                 "): not carried; list the ports, or group them by node description or partition");
        continue;
      }
      for (std::uint64_t g = r.first;; ++g) {
        if (std::find(out.begin(), out.end(), g) == out.end()) out.push_back(g);
        if (g == r.last) break;
      }
    }
    return std::nullopt;
  }

  // --- sections -----------------------------------------------------------------------------------------

  /// The end of a named block (port-group, qos-level): it needs a name no earlier block of its kind
  /// took; then it is kept. `noun` names the kind in errors ("port group", "qos-level").
  template <typename Item>
  std::optional<Failure> keep_named(const Line& open, std::optional<Failure> failed, Item&& item, Positioned pos,
                                    const std::string& keyword, const std::string& noun,
                                    std::map<std::string, Positioned>& at, std::vector<std::decay_t<Item>>& out) {
    if (failed) return failed;
    if (item.name.empty()) return fail(open, open.column, keyword + " without a name");
    if (at.contains(item.name)) return Failure{pos.line, pos.column, noun + " '" + item.name + "' is defined twice"};
    at[item.name] = pos;
    out.push_back(std::forward<Item>(item));
    return std::nullopt;
  }

  /// port-name: node descriptions; OpenSM's "node/Pn" names one port, smd groups the whole node (said).
  std::optional<Failure> group_port_names(const Line& l, QosPortGroup& group) {
    for (const Piece& p : split(l.value, l.value_column, ',')) {
      if (p.text.empty()) return fail(l, p.column, "port-name: empty value in a list");
      std::string node = p.text;
      const std::size_t slash = node.rfind('/');
      if (slash != std::string::npos && slash + 2 <= node.size() &&
          (node[slash + 1] == 'P' || node[slash + 1] == 'p')) {
        warn(l, p.column,
             "port-name '" + p.text + "': smd groups every port of node '" + node.substr(0, slash) + "', not port " +
                 node.substr(slash + 2) + " alone");
        node.resize(slash);
      }
      group.nodes.push_back(node);
    }
    return std::nullopt;
  }

  /// partition: names of smd's partitions; an unknown one is not carried (said).
  std::optional<Failure> group_partitions(const Line& l, QosPortGroup& group) {
    for (const Piece& p : split(l.value, l.value_column, ',')) {
      if (p.text.empty()) return fail(l, p.column, "partition: empty value in a list");
      if (std::none_of(partitions_.partitions.begin(), partitions_.partitions.end(),
                       [&](const PartitionSpec& s) { return s.name == p.text; })) {
        warn(l, p.column, "partition '" + p.text + "' is not in smd's partitions: not carried");
      } else {
        group.partitions.push_back(p.text);
      }
    }
    return std::nullopt;
  }

  /// pkey: P_Key ranges, carried as the names of smd's partitions they cover (a group lists partitions).
  std::optional<Failure> group_pkeys(const Line& l, QosPortGroup& group) {
    std::vector<QosRange> keys;
    if (auto e = pkey_ranges(l, l.value, l.value_column, keys)) return e;
    for (const QosRange& r : keys) {
      bool found = false;
      for (const PartitionSpec& s : partitions_.partitions) {
        if (!r.contains(s.pkey)) continue;
        found = true;
        if (s.name.empty()) {
          warn(l, l.value_column,
               "the partition of P_Key " + hex_text(s.pkey, 4) + " has no name to refer to: not carried");
        } else if (std::find(group.partitions.begin(), group.partitions.end(), s.name) == group.partitions.end()) {
          group.partitions.push_back(s.name);
        }
      }
      if (!found) {
        warn(l, l.value_column,
             "no partition of smd's has P_Key " + hex_text(r.first, 4) +
                 (r.first == r.last ? "" : "-" + hex_text(r.last, 4)) + ": not carried");
      }
    }
    return std::nullopt;
  }

  /// node-type: CA, SWITCH, ROUTER, ALL (the three) or SELF (the SM's own port).
  std::optional<Failure> group_node_types(const Line& l, QosPortGroup& group) {
    auto add = [&](NodeType type) {
      if (std::find(group.node_types.begin(), group.node_types.end(), type) == group.node_types.end()) {
        group.node_types.push_back(type);
      }
    };
    for (const Piece& p : split(l.value, l.value_column, ',')) {
      const std::string t = lower(p.text);
      if (t == "ca") {
        add(NodeType::kCa);
      } else if (t == "switch") {
        add(NodeType::kSwitch);
      } else if (t == "router") {
        add(NodeType::kRouter);
      } else if (t == "all") {
        add(NodeType::kCa), add(NodeType::kSwitch), add(NodeType::kRouter);
      } else if (t == "self") {
        group.self = true;
      } else {
        return fail(l, p.column, "node-type: expected CA, SWITCH, ROUTER, ALL or SELF, got '" + p.text + "'");
      }
    }
    return std::nullopt;
  }

  std::optional<Failure> port_group(const Line& open) {
    QosPortGroup group;
    Positioned pos{open.number, open.column};
    auto f = block(open, [&](const Line& l) -> std::optional<Failure> {
      if (l.key == "name") {
        group.name = l.value;
        pos = {l.number, l.value_column};
        return std::nullopt;
      }
      if (l.key == "use") return std::nullopt;  // a description for logs; smd has none to carry it to
      if (l.key == "port-guid") return guid_list(l, l.value, l.value_column, group.guids);
      if (l.key == "port-name") return group_port_names(l, group);
      if (l.key == "partition") return group_partitions(l, group);
      if (l.key == "pkey") return group_pkeys(l, group);
      if (l.key == "node-type") return group_node_types(l, group);
      return fail(l, l.column,
                  "unknown port-group keyword '" + l.key +
                      "' (expected name, use, port-guid, port-name, pkey, partition, node-type)");
    });
    return keep_named(open, f, std::move(group), pos, "port-group", "port group", group_at_, result.spec.port_groups);
  }

  std::optional<Failure> level(const Line& open) {
    QosLevel lvl;
    Positioned pos{open.number, open.column};
    auto f = block(open, [&](const Line& l) -> std::optional<Failure> {
      std::uint64_t v = 0;
      if (l.key == "name") {
        lvl.name = l.value;
        pos = {l.number, l.value_column};
      } else if (l.key == "use") {
      } else if (l.key == "sl") {
        if (auto e = number(l, {l.value, l.value_column}, 15, v)) return e;
        lvl.sl = static_cast<std::uint8_t>(v);
      } else if (l.key == "mtu-limit") {
        if (auto e = number(l, {l.value, l.value_column}, 5, v)) return e;
        if (v == 0) return fail(l, l.value_column, "mtu-limit: an MTU code is 1 (256 bytes) .. 5 (4096 bytes)");
        lvl.mtu_limit = static_cast<std::uint8_t>(v);
      } else if (l.key == "rate-limit") {
        if (auto e = number(l, {l.value, l.value_column}, 255, v)) return e;
        if (v < 2 || v > 24) {
          return fail(l, l.value_column, "rate-limit: an IBA rate code is 2 (2.5 Gb/s) .. 24 (1200 Gb/s), got " + l.value);
        }
        lvl.rate_limit = static_cast<std::uint8_t>(v);
      } else if (l.key == "packet-life") {
        if (auto e = number(l, {l.value, l.value_column}, 63, v)) return e;
        lvl.packet_life = static_cast<std::uint8_t>(v);
      } else if (l.key == "path-bits") {
        std::vector<QosRange> bits;
        if (auto e = ranges(l, l.value, l.value_column, 0x7f, bits)) return e;
        warn(l, l.column, "path-bits: smd gives a QoS level no LMC path bits; not carried");
      } else if (l.key == "pkey") {
        std::vector<QosRange> keys;
        if (auto e = pkey_ranges(l, l.value, l.value_column, keys)) return e;
        std::uint64_t count = 0;
        for (const QosRange& r : keys) count += r.last - r.first + 1;
        if (count + lvl.pkeys.size() > kMaxLevelPkeys) {
          warn(l, l.value_column, "pkey: " + std::to_string(count) + " P_Keys, more than a level lists (" +
                                      std::to_string(kMaxLevelPkeys) + "): not carried, the level allows any P_Key");
          return std::nullopt;
        }
        for (const QosRange& r : keys) {
          for (std::uint64_t k = r.first; k <= r.last; ++k) {
            if (k != 0) lvl.pkeys.push_back(static_cast<std::uint16_t>(k));
          }
        }
      } else {
        return fail(l, l.column, "unknown qos-level keyword '" + l.key +
                                     "' (expected name, use, sl, mtu-limit, rate-limit, packet-life, pkey, path-bits)");
      }
      return std::nullopt;
    });
    return keep_named(open, f, std::move(lvl), pos, "qos-level", "qos-level", level_at_, result.spec.levels);
  }

  /// A reference to check once the whole file is read (a rule may name a group defined after it).
  struct Reference {
    bool level = false;  ///< a level name, else a port group name
    std::string name;
    Positioned at;
  };

  std::optional<Failure> rule(const Line& open) {
    QosMatchRule r;
    std::optional<Line> qos_class;
    std::vector<Reference> refs;
    bool has_level = false;
    bool pkey_given = false;
    auto f = block(open, [&](const Line& l) -> std::optional<Failure> {
      if (l.key == "use") {
      } else if (l.key == "qos-class") {
        std::vector<QosRange> classes;
        if (auto e = ranges(l, l.value, l.value_column, 0xff, classes)) return e;
        qos_class = l;
      } else if (l.key == "source" || l.key == "destination") {
        for (const Piece& p : split(l.value, l.value_column, ',')) {
          if (p.text.empty()) return fail(l, p.column, l.key + ": empty value in a list");
          (l.key == "source" ? r.source : r.destination).push_back(p.text);
          refs.push_back({false, p.text, {l.number, p.column}});
        }
      } else if (l.key == "service-id") {
        return ranges(l, l.value, l.value_column, UINT64_MAX, r.service_ids);
      } else if (l.key == "pkey") {
        pkey_given = true;
        return pkey_ranges(l, l.value, l.value_column, r.pkeys);
      } else if (l.key == "qos-level-name") {
        r.level = l.value;
        has_level = true;
        refs.push_back({true, l.value, {l.number, l.value_column}});
      } else {
        return fail(l, l.column, "unknown qos-match-rule keyword '" + l.key +
                                     "' (expected use, qos-class, source, destination, service-id, pkey, "
                                     "qos-level-name)");
      }
      return std::nullopt;
    });
    if (f) return f;
    if (!has_level) return fail(open, open.column, "qos-match-rule without qos-level-name");
    refs_.insert(refs_.end(), refs.begin(), refs.end());
    if (pkey_given && r.pkeys.empty()) {
      warn(open, open.column, "this qos-match-rule has no P_Key left to match: not carried");
      return std::nullopt;
    }
    if (qos_class) {
      warn(*qos_class, qos_class->column,
           "qos-class: smd does not match on a query's QoS class; the rule is not carried (without this criterion "
           "it would match more queries)");
      return std::nullopt;
    }
    result.spec.rules.push_back(std::move(r));
    return std::nullopt;
  }

  std::optional<Failure> skip_setup(const Line& open) {
    bool content = false;
    while (next_ < lines_.size()) {
      const Line& l = lines_[next_++];
      if (l.key == "end-qos-setup" && !l.has_colon) {
        if (content) {
          warn(open, open.column,
               "qos-setup: OpenSM parses and ignores this section; smd's SL2VL and VL arbitration come from "
               "qos.sl2vl, qos.vlarb_high/low and the per-port-type blocks (opensm.conf's qos_* options): not "
               "carried");
        }
        return std::nullopt;
      }
      content = true;
    }
    return fail(open, open.column, "'qos-setup' is never closed by 'end-qos-setup'");
  }

  /// One qos-ulps line as a level name (by its SL) and a match rule.
  struct UlpLine {
    Line line;
    std::uint8_t sl = 0;
    QosMatchRule rule;
  };

  /// One qos-ulps line taken apart: "ULP[, criterion values] : SL".
  struct UlpParts {
    std::string ulp;        ///< lower case
    std::string criterion;  ///< lower case; "" when the line has none
    std::string values;
    int criterion_column = 1;
    int values_column = 1;
    std::uint8_t sl = 0;
  };

  std::optional<Failure> split_ulp_line(const Line& l, UlpParts& u) const {
    const std::size_t colon = l.text.rfind(':');
    if (colon == std::string::npos) return fail(l, l.column, "expected 'ULP[, criterion] : SL' or 'end-qos-ulps'");
    std::uint64_t sl = 0;
    const std::string sl_text = piece_trim(l.text.substr(colon + 1));
    const int sl_column = l.column + static_cast<int>(l.text.find_first_not_of(' ', colon + 1));
    if (auto f = number(Line{l.number, l.column, l.text, "sl", "", 0, true}, {sl_text, sl_column}, 15, sl)) return f;
    u.sl = static_cast<std::uint8_t>(sl);
    const std::string head = l.text.substr(0, colon);
    const std::size_t comma = head.find(',');
    u.ulp = lower(piece_trim(head.substr(0, comma)));
    u.criterion_column = u.values_column = l.column;
    if (comma == std::string::npos) return std::nullopt;
    const std::string rest = head.substr(comma + 1);
    const std::size_t a = rest.find_first_not_of(' ');
    if (a == std::string::npos)
      return fail(l, l.column + static_cast<int>(comma) + 1, "a criterion after ',' is missing");
    const std::size_t sp = rest.find(' ', a);
    u.criterion = lower(rest.substr(a, sp == std::string::npos ? std::string::npos : sp - a));
    u.criterion_column = l.column + static_cast<int>(comma + 1 + a);
    if (sp == std::string::npos) return fail(l, u.criterion_column, u.criterion + ": missing value");
    u.values = piece_trim(rest.substr(sp));
    u.values_column = l.column + static_cast<int>(comma + 1 + rest.find_first_not_of(' ', sp));
    return std::nullopt;
  }

  /// The line as seen by the value readers: its key is the criterion, so their errors name it.
  static Line criterion_line(const Line& l, const UlpParts& u) {
    Line vl = l;
    vl.key = u.criterion;
    return vl;
  }

  /// SDP, RDS, iSER: service IDs base + port; without port-num, the ULP's default port (or all 64 Ki of
  /// SDP's, which has none).
  std::optional<Failure> ulp_service(const Line& l, const UlpParts& u, std::uint64_t base,
                                     std::optional<std::uint64_t> default_port, QosMatchRule& rule) const {
    if (u.criterion.empty()) {
      rule.service_ids.push_back(default_port ? QosRange{base + *default_port, base + *default_port}
                                              : QosRange{base, base + 0xffff});
      return std::nullopt;
    }
    if (u.criterion != "port-num")
      return fail(l, u.criterion_column, u.ulp + " takes port-num, got '" + u.criterion + "'");
    std::vector<QosRange> ports;
    if (auto e = ranges(criterion_line(l, u), u.values, u.values_column, 0xffff, ports)) return e;
    for (const QosRange& p : ports) rule.service_ids.push_back({base + p.first, base + p.last});
    return std::nullopt;
  }

  /// A GUID criterion becomes a port group of its own, named after the line; `carried` turns false when
  /// every GUID was dropped.
  std::optional<Failure> ulp_guid_group(const Line& l, const UlpParts& u, bool target, QosMatchRule& rule,
                                        bool& carried) {
    QosPortGroup g;
    g.name = "ulp_line" + std::to_string(l.number) + (target ? "_target" : "_source");
    if (auto e = guid_list(criterion_line(l, u), u.values, u.values_column, g.guids)) return e;
    if (g.guids.empty()) {
      warn(l, l.column, "this qos-ulps line has no port left to match: not carried");
      carried = false;
      return std::nullopt;
    }
    (target ? rule.destination : rule.source).push_back(g.name);
    ulp_groups_.push_back(std::move(g));
    return std::nullopt;
  }

  /// The match rule of one ULP line by its ULP and criterion (QoS_management_in_OpenSM.txt 6).
  std::optional<Failure> ulp_rule(const Line& l, const UlpParts& u, QosMatchRule& rule, bool& carried) {
    const Line vl = criterion_line(l, u);
    if (u.ulp == "sdp") return ulp_service(l, u, kSdpServiceBase, std::nullopt, rule);
    if (u.ulp == "rds") return ulp_service(l, u, kRdsIserServiceBase, kRdsDefaultPort, rule);
    if (u.ulp == "iser") return ulp_service(l, u, kRdsIserServiceBase, kIserDefaultPort, rule);
    if (u.ulp == "ipoib") {
      if (u.criterion.empty()) {
        rule.pkeys.push_back({kDefaultPKeyBase, kDefaultPKeyBase});
        return std::nullopt;
      }
      if (u.criterion == "pkey") return pkey_ranges(vl, u.values, u.values_column, rule.pkeys);
      return fail(l, u.criterion_column, "ipoib takes pkey, got '" + u.criterion + "'");
    }
    if (u.ulp == "srp") {
      if (u.criterion != "target-port-guid") {
        return fail(l, u.criterion.empty() ? l.column : u.criterion_column,
                    "srp needs target-port-guid (SRP's service IDs differ by vendor)");
      }
      return ulp_guid_group(l, u, true, rule, carried);
    }
    if (u.ulp == "any") {
      if (u.criterion == "service-id") return ranges(vl, u.values, u.values_column, UINT64_MAX, rule.service_ids);
      if (u.criterion == "pkey") return pkey_ranges(vl, u.values, u.values_column, rule.pkeys);
      if (u.criterion == "target-port-guid" || u.criterion == "source-port-guid") {
        return ulp_guid_group(l, u, u.criterion == "target-port-guid", rule, carried);
      }
      return fail(l, u.criterion.empty() ? l.column : u.criterion_column,
                  "any needs service-id, pkey, target-port-guid or source-port-guid");
    }
    return fail(l, l.column, "unknown ULP '" + u.ulp + "' (expected default, any, ipoib, sdp, rds, iser, srp)");
  }

  /// One qos-ulps line: the default SL, or a rule kept for finish() (which gives it its SL's level).
  std::optional<Failure> ulp_line(const Line& l) {
    UlpParts parts;
    if (auto f = split_ulp_line(l, parts)) return f;
    UlpLine u{l, parts.sl, {}};
    if (parts.ulp == "default") {
      if (!parts.criterion.empty()) return fail(l, parts.criterion_column, "default takes no criterion");
      if (ulp_default_) {
        return fail(l, l.column,
                    "qos-ulps default given twice (first at line " + std::to_string(ulp_default_->line.number) + ")");
      }
      ulp_default_ = u;
      return std::nullopt;
    }
    bool carried = true;  // false when every GUID of the line was dropped
    if (auto f = ulp_rule(l, parts, u.rule, carried)) return f;
    if (parts.criterion == "pkey" && u.rule.pkeys.empty()) {
      warn(l, l.column, "this qos-ulps line has no P_Key left to match: not carried");
      carried = false;
    }
    if (carried) ulp_lines_.push_back(std::move(u));
    return std::nullopt;
  }

  std::optional<Failure> ulps(const Line& open) {
    while (next_ < lines_.size()) {
      const Line& l = lines_[next_++];
      if (l.key == "end-qos-ulps" && !l.has_colon) return std::nullopt;
      if (auto f = ulp_line(l)) return f;
    }
    return fail(open, open.column, "'qos-ulps' is never closed by 'end-qos-ulps'");
  }

  std::optional<Failure> finish() {
    for (const Reference& r : refs_) {
      if (r.level ? level_at_.contains(r.name) : group_at_.contains(r.name)) continue;
      return Failure{r.at.line, r.at.column,
                     std::string(r.level ? "unknown qos-level '" : "unknown port group '") + r.name + "'"};
    }
    QosSpec& spec = result.spec;
    // qos-ulps: one level per SL, one rule per line, after the file's rules (OpenSM tries them last).
    std::map<std::uint8_t, std::string> level_of_sl;
    for (UlpLine& u : ulp_lines_) {
      auto [it, added] = level_of_sl.try_emplace(u.sl, "");
      if (added) {
        std::string name = "ulp_sl" + std::to_string(u.sl);
        while (level_at_.contains(name)) name += "_";
        level_at_[name] = {u.line.number, u.line.column};
        it->second = name;
        QosLevel lvl;
        lvl.name = name;
        lvl.sl = u.sl;
        spec.levels.push_back(std::move(lvl));
      }
      u.rule.level = it->second;
    }
    // The groups made for GUID criteria must not take a name the file gives a group of its own.
    std::map<std::string, std::string> renamed;
    for (QosPortGroup& g : ulp_groups_) {
      std::string name = g.name;
      while (group_at_.contains(name)) name += "_";
      group_at_[name] = {};
      renamed[g.name] = name;
      g.name = name;
    }
    for (UlpLine& u : ulp_lines_) {
      for (auto* names : {&u.rule.source, &u.rule.destination}) {
        for (std::string& n : *names) n = renamed.at(n);
      }
      spec.rules.push_back(std::move(u.rule));
    }
    spec.port_groups.insert(spec.port_groups.end(), ulp_groups_.begin(), ulp_groups_.end());
    if (ulp_default_) {
      auto def = std::find_if(spec.levels.begin(), spec.levels.end(),
                              [](const QosLevel& l) { return l.name == kDefaultQosLevel; });
      if (def == spec.levels.end()) {
        QosLevel lvl;
        lvl.name = kDefaultQosLevel;
        lvl.sl = ulp_default_->sl;
        spec.levels.insert(spec.levels.begin(), std::move(lvl));
      } else if (def->sl.value_or(0) != ulp_default_->sl) {
        warn(ulp_default_->line, ulp_default_->line.column,
             "qos-ulps default SL " + std::to_string(ulp_default_->sl) +
                 ": the qos-levels DEFAULT level (SL " + std::to_string(def->sl.value_or(0)) +
                 ") is what queries no rule matches get; kept");
      }
    }
    const bool has_default = std::any_of(spec.levels.begin(), spec.levels.end(),
                                         [](const QosLevel& l) { return l.name == kDefaultQosLevel; });
    if (!has_default && (!spec.levels.empty() || !spec.rules.empty())) {
      return Failure{lines_.empty() ? 1 : lines_.back().number, 1,
                     std::string("no qos-level is named ") + kDefaultQosLevel +
                         " (nor a qos-ulps default): queries no rule matches need it"};
    }
    return std::nullopt;
  }

  const std::string& source_;
  const PartitionsSpec& partitions_;
  std::vector<Line> lines_;
  std::size_t next_ = 0;
  std::map<std::string, Positioned> group_at_;
  std::map<std::string, Positioned> level_at_;
  std::vector<Reference> refs_;
  std::vector<UlpLine> ulp_lines_;
  std::vector<QosPortGroup> ulp_groups_;
  std::optional<UlpLine> ulp_default_;
};

}  // namespace
}  // namespace qos_policy_conf

Result<QosPolicyImport> parse_qos_policy_conf(std::string_view text, const std::string& source_name,
                                              const PartitionsSpec& partitions) {
  qos_policy_conf::Parser parser(source_name, partitions);
  if (std::optional<qos_policy_conf::Failure> f = parser.run(text)) {
    return make_error(ErrorCode::kInvalidInput, source_name + ":" + std::to_string(f->line) + ":" +
                                                    std::to_string(f->column) + ": " + f->message);
  }
  return std::move(parser.result);
}

}  // namespace smd
