#include "config/qos_section.h"

#include <algorithm>
#include <array>
#include <utility>

#include "routing/base/result_context.h"

namespace smd {

namespace {

/// Bounds of every list in `qos:` (port groups, levels, rules, and each list inside one): far above any
/// real policy (OpenSM's examples use a handful), low enough that YAML aliases cannot make one load, or one
/// PathRecord's walk over the rules, cost more than a few million steps.
constexpr std::size_t kMaxQosListItems = 256;
/// Port GUIDs and NodeDescriptions of one port group: a group of hosts may be large.
constexpr std::size_t kMaxQosGroupPorts = 4096;

std::string quoted_item(const YAML::Node& item) {
  return item.IsScalar() ? "'" + item.Scalar() + "'" : describe_kind(item);
}

std::string trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return std::string(text);
}

std::vector<std::string> split_on(const std::string& text, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t at = text.find(sep, start);
    parts.push_back(
        trim(std::string_view(text).substr(start, at == std::string::npos ? std::string::npos : at - start)));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

/// An unsigned in lo..hi written as `text`; the error message (without place) otherwise.
Result<std::uint64_t> bounded(const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  Result<std::uint64_t> value = parse_unsigned(text);
  if (!value.ok()) return value;
  if (*value < lo || *value > hi) {
    return make_error(ErrorCode::kInvalidInput,
                      text + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  return value;
}

template <typename Narrow>
void read_optional(MapReader& map, std::string_view key, std::uint64_t lo, std::uint64_t hi,
                   std::optional<Narrow>& out) {
  if (!map.read_raw(key)) return;  // absent; read_raw still makes it a known key for did-you-mean hints
  unsigned value = static_cast<unsigned>(lo);
  const std::size_t before = map.diagnostics().failures();
  map.read_unsigned(key, lo, hi, value);
  if (map.diagnostics().failures() == before) out = static_cast<Narrow>(value);
}

// `vlarb_high` / `vlarb_low`: "VL:weight,..." as OpenSM writes it, or a sequence of {vl:, weight:} maps.
void read_vlarb(MapReader& map, std::string_view key, std::vector<VlArbEntry>& out) {
  std::optional<MapReader::Raw> raw = map.read_raw(key);
  if (!raw) return;
  Diagnostics& diag = map.diagnostics();
  std::vector<VlArbEntry> entries;
  if (raw->node.IsScalar()) {
    const std::string& text = raw->node.Scalar();
    const std::vector<std::string> parts = trim(text).empty() ? std::vector<std::string>{} : split_on(text, ',');
    if (parts.size() > kMaxVlArbEntries) {
      diag.fail(raw->mark, raw->path,
                std::to_string(parts.size()) + " entries; a VLArbitration table holds at most " +
                    std::to_string(kMaxVlArbEntries));
      return;
    }
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const std::string where = "entry " + std::to_string(i) + " '" + parts[i] + "': ";
      const std::size_t colon = parts[i].find(':');
      if (colon == std::string::npos) {
        diag.fail(raw->mark, raw->path, where + "expected VL:weight");
        return;
      }
      Result<std::uint64_t> vl = bounded(trim(parts[i].substr(0, colon)), 0, 14);
      Result<std::uint64_t> weight = bounded(trim(parts[i].substr(colon + 1)), 0, 255);
      if (!vl.ok() || !weight.ok()) {
        diag.fail(raw->mark, raw->path,
                  where + (vl.ok() ? "weight " + weight.error().message : "VL " + vl.error().message));
        return;
      }
      entries.push_back(VlArbEntry{static_cast<std::uint8_t>(*vl), static_cast<std::uint8_t>(*weight)});
    }
    out = std::move(entries);
    return;
  }
  if (!raw->node.IsSequence()) {
    diag.fail(raw->mark, raw->path,
              "expected \"VL:weight,...\" or a sequence of {vl:, weight:}, got " + describe_kind(raw->node));
    return;
  }
  if (raw->node.size() > kMaxVlArbEntries) {
    diag.fail(raw->mark, raw->path,
              std::to_string(raw->node.size()) + " entries; a VLArbitration table holds at most " +
                  std::to_string(kMaxVlArbEntries));
    return;
  }
  const std::size_t before = diag.failures();
  for (std::size_t i = 0; i < raw->node.size(); ++i) {
    const YAML::Node item = raw->node[i];
    const YAML::Mark mark = item_mark(item, raw->mark);
    const std::string path = raw->path + "[" + std::to_string(i) + "]";
    if (!item.IsMap()) {
      diag.fail(mark, path, "expected a map {vl:, weight:}, got " + describe_kind(item));
      continue;
    }
    MapReader entry(item, path, mark, diag);
    VlArbEntry e;
    read_narrow(entry, "vl", 0, 14, e.vl);
    read_narrow(entry, "weight", 0, 255, e.weight);
    if (!entry.key_mark("vl")) diag.fail(mark, path + ".vl", "missing: every entry names its data VL (0..14)");
    entry.finish();
    entries.push_back(e);
  }
  if (diag.failures() == before) out = std::move(entries);
}

// `sl2vl`: the VL of SL 0..15, as "0,1,...,7" or a sequence of 16 integers; 15 drops the SL.
void read_sl2vl(MapReader& map, Sl2Vl& out) {
  std::optional<MapReader::Raw> raw = map.read_raw("sl2vl");
  if (!raw) return;
  Diagnostics& diag = map.diagnostics();
  Sl2Vl table{};
  if (raw->node.IsScalar()) {
    const std::vector<std::string> parts = split_on(raw->node.Scalar(), ',');
    if (parts.size() != table.size()) {
      diag.fail(raw->mark, raw->path,
                std::to_string(parts.size()) + " VLs; an SL2VL table has one for each of the 16 SLs");
      return;
    }
    for (std::size_t sl = 0; sl < parts.size(); ++sl) {
      Result<std::uint64_t> vl = bounded(parts[sl], 0, 15);
      if (!vl.ok()) {
        diag.fail(raw->mark, raw->path, "SL " + std::to_string(sl) + ": VL " + vl.error().message);
        return;
      }
      table[sl] = static_cast<std::uint8_t>(*vl);
    }
    out = table;
    return;
  }
  if (!raw->node.IsSequence()) {
    diag.fail(raw->mark, raw->path, "expected 16 VLs (\"0,1,...\" or a sequence), got " + describe_kind(raw->node));
    return;
  }
  if (raw->node.size() != table.size()) {
    diag.fail(raw->mark, raw->path,
              std::to_string(raw->node.size()) + " VLs; an SL2VL table has one for each of the 16 SLs");
    return;
  }
  for (std::size_t sl = 0; sl < table.size(); ++sl) {
    const YAML::Node item = raw->node[sl];
    const YAML::Mark mark = item_mark(item, raw->mark);
    Result<std::uint64_t> vl =
        item.IsScalar()
            ? bounded(item.Scalar(), 0, 15)
            : Result<std::uint64_t>(make_error(ErrorCode::kInvalidInput, "expected a VL, got " + quoted_item(item)));
    if (!vl.ok()) {
      diag.fail(mark, raw->path + "[" + std::to_string(sl) + "]", vl.error().message);
      return;
    }
    table[sl] = static_cast<std::uint8_t>(*vl);
  }
  out = table;
}

void read_port_values(MapReader& map, QosPortSpec& out) {
  read_narrow(map, "max_vls", 1, 15, out.max_vls);
  read_narrow(map, "high_limit", 0, 255, out.high_limit);
  read_vlarb(map, "vlarb_high", out.vlarb_high);
  read_vlarb(map, "vlarb_low", out.vlarb_low);
  read_sl2vl(map, out.sl2vl);
}

/// A sequence of scalars under `key` (names); each is checked by `accept`, which records its own error.
template <typename Accept>
void read_scalars(MapReader& map, std::string_view key, std::string_view noun, Accept accept,
                  std::size_t max_items = kMaxQosListItems) {
  for_each_item(
      map, key, noun,
      [&](const YAML::Node& item, const YAML::Mark& mark, const std::string& path) {
        if (!item.IsScalar()) {
          map.diagnostics().fail(mark, path, "expected a scalar, got " + describe_kind(item));
          return;
        }
        accept(item.Scalar(), mark, path);
      },
      max_items);
}

/// A P_Key as written (bit 15, the membership, may be set) -> its 15-bit base; base 0 is no partition.
Result<std::uint64_t> pkey_base(const std::string& text) {
  Result<std::uint64_t> value = bounded(text, 1, 0xffff);
  if (!value.ok()) return value;
  if ((*value & 0x7fff) == 0) return make_error(ErrorCode::kInvalidInput, text + " has P_Key base 0 (no partition)");
  return *value & 0x7fff;
}

/// "first-last" or one value; `pkeys` reads P_Key bases (bit 15 dropped), else 64-bit service IDs.
Result<QosRange> parse_range(const std::string& text, bool pkeys) {
  const std::size_t dash = text.find('-');
  const std::string first_text = trim(text.substr(0, dash));
  const std::string last_text = dash == std::string::npos ? first_text : trim(text.substr(dash + 1));
  // In a range, say which end was refused: "range '1-0x10000', last: 0x10000 is above ...".
  const auto end_context = [&](const char* end) {
    return dash == std::string::npos ? "" : "range '" + text + "', " + end;
  };
  Result<std::uint64_t> first = pkeys ? pkey_base(first_text) : parse_unsigned(first_text);
  if (!first.ok()) return context_of(first) << end_context("first");
  Result<std::uint64_t> last = pkeys ? pkey_base(last_text) : parse_unsigned(last_text);
  if (!last.ok()) return context_of(last) << end_context("last");
  if (*first > *last) return make_error(ErrorCode::kInvalidInput, "'" + text + "' is an empty range (first > last)");
  return QosRange{*first, *last};
}

void read_ranges(MapReader& map, std::string_view key, bool pkeys, std::vector<QosRange>& out) {
  read_scalars(map, key, pkeys ? "P_Keys or ranges" : "service IDs or ranges",
               [&](const std::string& text, const YAML::Mark& mark, const std::string& path) {
                 Result<QosRange> range = parse_range(text, pkeys);
                 if (!range.ok()) {
                   map.diagnostics().fail(mark, path, range.error().message);
                   return;
                 }
                 out.push_back(*range);
               });
}

/// A sequence of maps under `key`, each read by `read_one(map, mark, path)`.
template <typename ReadOne>
void read_map_list(MapReader& qos, std::string_view key, std::string_view noun, ReadOne read_one) {
  Diagnostics& diag = qos.diagnostics();
  for_each_item(
      qos, key, noun,
      [&](const YAML::Node& item, const YAML::Mark& mark, const std::string& path) {
        if (!item.IsMap()) {
          diag.fail(mark, path, "expected a map, got " + describe_kind(item));
          return;
        }
        MapReader map(item, path, mark, diag);
        read_one(map, mark, path);
        map.finish();
      },
      kMaxQosListItems);
}

/// `name` of a list entry: required, unique among `taken`.
bool read_name(MapReader& map, const YAML::Mark& mark, const std::string& path, const char* noun,
               const std::vector<std::string>& taken, std::string& out) {
  const std::size_t before = map.diagnostics().failures();
  map.read_string("name", out, /*non_empty=*/true);
  if (map.diagnostics().failures() != before) return false;
  if (!map.key_mark("name")) {
    map.diagnostics().fail(mark, path + ".name", std::string("missing: every ") + noun + " has a name");
    return false;
  }
  if (std::find(taken.begin(), taken.end(), out) != taken.end()) {
    map.diagnostics().fail(*map.value_mark_of("name"), path + ".name",
                           std::string(noun) + " '" + out + "' is defined twice");
    return false;
  }
  return true;
}

const std::vector<std::string>& node_type_names() {
  static const std::vector<std::string> names = {"ca", "switch", "router"};
  return names;
}

void read_port_groups(MapReader& qos, const PartitionsSpec& partitions, std::vector<QosPortGroup>& out) {
  std::vector<std::string> names;
  read_map_list(
      qos, "port_groups", "port groups", [&](MapReader& map, const YAML::Mark& mark, const std::string& path) {
        Diagnostics& diag = map.diagnostics();
        const std::size_t before = diag.failures();
        QosPortGroup group;
        const bool named = read_name(map, mark, path, "port group", names, group.name);
        map.read_guid_list("guids", group.guids);
        if (group.guids.size() > kMaxQosGroupPorts) {
          map.fail_key("guids", std::to_string(group.guids.size()) + " GUIDs; at most " +
                                    std::to_string(kMaxQosGroupPorts) +
                                    " are accepted (name many ports by node_types "
                                    "or partitions)");
        }
        read_scalars(
            map, "nodes", "NodeDescriptions",
            [&](const std::string& text, const YAML::Mark&, const std::string&) { group.nodes.push_back(text); },
            kMaxQosGroupPorts);
        read_scalars(map, "partitions", "partition names",
                     [&](const std::string& text, const YAML::Mark& at, const std::string& where) {
                       const bool known = std::any_of(partitions.partitions.begin(), partitions.partitions.end(),
                                                      [&](const PartitionSpec& p) { return p.name == text; });
                       if (!known) {
                         diag.fail(at, where,
                                   "unknown partition '" + text + "' (no partitions.list entry has that name)");
                         return;
                       }
                       group.partitions.push_back(text);
                     });
        read_scalars(map, "node_types", "node types",
                     [&](const std::string& text, const YAML::Mark& at, const std::string& where) {
                       const auto& types = node_type_names();
                       const auto it = std::find(types.begin(), types.end(), text);
                       if (it == types.end()) {
                         diag.fail(at, where, "unknown node type '" + text + "'; expected one of ca, switch, router");
                         return;
                       }
                       group.node_types.push_back(static_cast<NodeType>(1 + (it - types.begin())));
                     });
        map.read_bool("self", group.self);
        if (named) names.push_back(group.name);
        if (diag.failures() == before) out.push_back(std::move(group));
      });
}

void read_levels(MapReader& qos, std::vector<QosLevel>& out) {
  std::vector<std::string> names;
  read_map_list(qos, "levels", "QoS levels", [&](MapReader& map, const YAML::Mark& mark, const std::string& path) {
    Diagnostics& diag = map.diagnostics();
    const std::size_t before = diag.failures();
    QosLevel level;
    const bool named = read_name(map, mark, path, "QoS level", names, level.name);
    read_optional(map, "sl", 0, 15, level.sl);
    if (std::optional<MapReader::Raw> raw = map.read_raw("mtu_limit")) {
      std::optional<std::uint8_t> code;
      if (raw->node.IsScalar()) {
        if (Result<std::uint64_t> bytes = parse_unsigned(raw->node.Scalar()); bytes.ok())
          code = mtu_code_of_bytes(*bytes);
      }
      if (!code) {
        diag.fail(raw->mark, raw->path,
                  "expected an MTU in bytes (256, 512, 1024, 2048, 4096), got " + quoted_item(raw->node));
      }
      level.mtu_limit = code;
    }
    if (std::optional<MapReader::Raw> raw = map.read_raw("rate_limit")) {
      std::optional<std::uint8_t> code = raw->node.IsScalar() ? rate_code_of_gbps(raw->node.Scalar()) : std::nullopt;
      if (!code) {
        diag.fail(raw->mark, raw->path,
                  "expected a rate in Gb/s that IBA has a code for (2.5, 5, 10, 14, 20, 25, 28, 30, 40, 50, 56, "
                  "60, 80, 100, 112, 120, 168, 200, 300, 400, 600, 800, 1200), got " +
                      quoted_item(raw->node));
      }
      level.rate_limit = code;
    }
    read_optional(map, "packet_life", 0, 63, level.packet_life);
    read_scalars(map, "pkeys", "P_Keys", [&](const std::string& text, const YAML::Mark& at, const std::string& where) {
      Result<std::uint64_t> base = pkey_base(text);
      if (!base.ok()) {
        diag.fail(at, where, base.error().message);
        return;
      }
      level.pkeys.push_back(static_cast<std::uint16_t>(*base));
    });
    if (named) names.push_back(level.name);
    if (diag.failures() == before) out.push_back(std::move(level));
  });
}

void read_rules(MapReader& qos, const QosSpec& spec, std::vector<QosMatchRule>& out) {
  read_map_list(qos, "rules", "match rules", [&](MapReader& map, const YAML::Mark& mark, const std::string& path) {
    Diagnostics& diag = map.diagnostics();
    const std::size_t before = diag.failures();
    QosMatchRule rule;
    map.read_string("level", rule.level, /*non_empty=*/true);
    if (diag.failures() == before) {
      if (!map.key_mark("level")) {
        diag.fail(mark, path + ".level", "missing: every rule names the QoS level it gives");
      } else if (std::none_of(spec.levels.begin(), spec.levels.end(),
                              [&](const QosLevel& l) { return l.name == rule.level; })) {
        diag.fail(*map.value_mark_of("level"), path + ".level", "unknown QoS level '" + rule.level + "'");
      }
    }
    const std::pair<const char*, std::vector<std::string>*> sides[] = {{"source", &rule.source},
                                                                       {"destination", &rule.destination}};
    for (const auto& side : sides) {
      const char* key = side.first;  // not a binding: the lambda captures `groups` (clang < 16 cannot)
      std::vector<std::string>* groups = side.second;
      read_scalars(map, key, "port group names",
                   [&](const std::string& text, const YAML::Mark& at, const std::string& where) {
                     if (std::none_of(spec.port_groups.begin(), spec.port_groups.end(),
                                      [&](const QosPortGroup& g) { return g.name == text; })) {
                       diag.fail(at, where, "unknown port group '" + text + "'");
                       return;
                     }
                     groups->push_back(text);
                   });
    }
    read_ranges(map, "service_ids", /*pkeys=*/false, rule.service_ids);
    read_ranges(map, "pkeys", /*pkeys=*/true, rule.pkeys);
    if (diag.failures() == before) out.push_back(std::move(rule));
  });
}

}  // namespace

std::optional<std::uint8_t> rate_code_of_gbps(std::string_view text) {
  // (Gb/s as written, code): IBA table 224 with the 1.3-1.5 additions.
  static constexpr std::array<std::pair<std::string_view, std::uint8_t>, 23> kRates = {{
      {"2.5", 2},  {"10", 3},  {"30", 4},  {"5", 5},    {"20", 6},   {"40", 7},   {"60", 8},    {"80", 9},
      {"120", 10}, {"14", 11}, {"56", 12}, {"112", 13}, {"168", 14}, {"25", 15},  {"100", 16},  {"200", 17},
      {"300", 18}, {"28", 19}, {"50", 20}, {"400", 21}, {"600", 22}, {"800", 23}, {"1200", 24},
  }};
  for (const auto& [gbps, code] : kRates) {
    if (gbps == text) return code;
  }
  return std::nullopt;
}

std::optional<std::uint8_t> mtu_code_of_bytes(std::uint64_t bytes) {
  for (std::uint8_t code = 1; code <= 5; ++code) {
    if (bytes == (128ULL << code)) return code;
  }
  return std::nullopt;
}

void read_qos(MapReader qos, const PartitionsSpec& partitions, QosSpec& out) {
  Diagnostics& diag = qos.diagnostics();
  QosSpec spec;
  qos.read_bool("enabled", spec.enabled);
  QosPortSpec common = default_qos_port_spec();
  read_port_values(qos, common);
  // Each per-type block inherits what the top level says and overrides what it names.
  const std::pair<const char*, QosPortSpec*> types[] = {{"ca", &spec.ca},
                                                        {"switch_port0", &spec.switch_port0},
                                                        {"switch_external", &spec.switch_external},
                                                        {"router", &spec.router}};
  for (const auto& [key, port] : types) {
    *port = common;
    MapReader block = qos.section(key);
    read_port_values(block, *port);
    block.finish();
  }
  read_port_groups(qos, partitions, spec.port_groups);
  read_levels(qos, spec.levels);
  if (!spec.levels.empty() && std::none_of(spec.levels.begin(), spec.levels.end(),
                                           [](const QosLevel& l) { return l.name == kDefaultQosLevel; })) {
    diag.fail(*qos.value_mark_of("levels"), "qos.levels",
              std::string("no level is named ") + kDefaultQosLevel + "; queries no rule matches need it");
  }
  read_rules(qos, spec, spec.rules);
  qos.finish();
  out = std::move(spec);
}

}  // namespace smd
