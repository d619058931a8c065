#include "config/opensm_import.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "config/key_path.h"
#include "config/partitions_conf.h"
#include "config/partitions_yaml.h"
#include "config/policy_loader.h"
#include "config/qos_policy_conf.h"
#include "config/qos_yaml.h"
#include "config/yaml_scalar.h"
#include "routing/base/hex_text.h"
#include "routing/base/result_context.h"
#include "routing/base/safe_text.h"
#include "routing/partitions/partition_spec.h"

namespace smd {

namespace {

// Sections in the order of config/smd.yaml, so a converted file reads like the annotated default.
const std::vector<std::string> kSectionOrder = {"sm",      "routing", "lid",      "mad",       "log",
                                                "control", "metrics", "security", "ports",     "roce",
                                                "sa",      "perfmgr", "health",   "multicast", "congestion_control",
                                                "qos"};

// OpenSM's engine names that smd has (routing_engine).
const std::vector<std::string> kSmdEngines = {"minhop", "updn", "dnup", "ftree", "sssp",      "dfsssp",
                                              "file",   "dor",  "lash", "nue",   "torus-2QoS"};
constexpr const char* kOpenSmTorusConfigDefault = "/etc/opensm/torus-2QoS.conf";

constexpr const char* kOpenSmPartitionsDefault = "/etc/opensm/partitions.conf";
constexpr const char* kOpenSmQosPolicyDefault = "/etc/opensm/qos-policy.conf";

struct Entry {
  std::vector<std::string> path;  ///< the policy key split at '.'
  std::string value;              ///< YAML text
  std::string from;               ///< "FILE:LINE name value", for the comment and the report
  std::size_t setting = 0;        ///< index into the settings
  std::size_t where = 0;          ///< length of the "FILE:LINE" that starts `from` (FILE may hold spaces)
};

std::string lower_copy(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::optional<std::uint64_t> parse_number(const std::string& text) {
  if (text.empty() || text[0] == '-' || text[0] == '+') return std::nullopt;
  const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string digits = hex ? text.substr(2) : text;
  if (digits.empty() || digits.size() > 20) return std::nullopt;
  const auto ok = [hex](unsigned char c) { return hex ? std::isxdigit(c) != 0 : std::isdigit(c) != 0; };
  if (!std::all_of(digits.begin(), digits.end(), ok)) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(digits.c_str(), &end, hex ? 16 : 10);
  if (errno == ERANGE || end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

std::optional<bool> parse_bool(const std::string& text) {
  const std::string t = lower_copy(text);
  if (t == "true" || t == "1") return true;
  if (t == "false" || t == "0") return false;
  return std::nullopt;
}

bool is_null(const std::string& text) { return text.empty() || text == "(null)"; }

// Values compared as OpenSM reads them: numbers by value (0x07 == 7), booleans and words without case.
bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (is_null(a) && is_null(b)) return true;
  const auto na = parse_number(a), nb = parse_number(b);
  if (na && nb) return *na == *nb;
  return lower_copy(a) == lower_copy(b);
}

// log_flags (OpenSM's OSM_LOG_* bits) -> the one smd level that shows at least as much.
std::string level_of_log_flags(std::uint64_t flags) {
  if (flags & (0x10 | 0x20)) return "trace";  // FUNCS, FRAMES
  if (flags & (0x04 | 0x08)) return "debug";  // VERBOSE, DEBUG
  if (flags & 0x02) return "info";
  if (flags & 0x01) return "error";
  return "off";
}

Result<PartitionEnforcement> enforcement_of(const std::string& word) {
  const std::string w = lower_copy(word);
  if (w == "both") return PartitionEnforcement::kBoth;
  if (w == "in") return PartitionEnforcement::kIn;
  if (w == "out") return PartitionEnforcement::kOut;
  if (w == "off") return PartitionEnforcement::kOff;
  return make_error(ErrorCode::kInvalidInput, "not one of both, in, out, off");
}

// `text` (file names from the command line and opensm.conf, values, the loader's words) as it may stand in
// a YAML comment: a newline would end the comment and make the rest YAML, and a YAML reader refuses
// control characters even in comments (YAML 1.1 5.1). printable_text escapes those (and a backslash, so
// the escape reads back); U+FFFE and U+FFFF, which it keeps as valid UTF-8, are outside YAML's set too.
std::string comment_text(const std::string& text) {
  std::string out = printable_text(text);
  for (std::size_t at = out.find("\xEF\xBF"); at != std::string::npos; at = out.find("\xEF\xBF", at)) {
    const auto last = static_cast<unsigned char>(out[at + 2]);
    if (last != 0xBE && last != 0xBF) {
      at += 2;
      continue;
    }
    char escaped[16];
    std::snprintf(escaped, sizeof escaped, "\\xef\\xbf\\x%02x", last);
    out.replace(at, 3, escaped);
  }
  return out;
}

// Emits the entries as nested YAML maps, grouping by key path in first-appearance order; records which
// entry each output line holds, so a loader error can be traced back to its option.
class YamlWriter {
 public:
  explicit YamlWriter(std::string& out) : out_(out) {}

  void emit(const std::vector<const Entry*>& entries, std::size_t depth, std::map<int, const Entry*>& line_of) {
    std::vector<std::string> order;
    for (const Entry* e : entries) {
      if (std::find(order.begin(), order.end(), e->path[depth]) == order.end()) order.push_back(e->path[depth]);
    }
    const std::string indent(2 * depth, ' ');
    for (const std::string& key : order) {
      std::vector<const Entry*> group;
      for (const Entry* e : entries) {
        if (e->path[depth] == key) group.push_back(e);
      }
      if (group.size() == 1 && group[0]->path.size() == depth + 1) {
        line_of[line_] = group[0];
        line(indent + key + ": " + group[0]->value + "  # " + comment_text(group[0]->from));
        continue;
      }
      line(indent + key + ":");
      emit(group, depth + 1, line_of);
    }
  }

  void line(const std::string& text) {
    out_ += text + "\n";
    ++line_;
  }

  void raw(const std::string& text) {
    out_ += text;
    line_ += static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  }

  int next_line() const { return line_; }

 private:
  std::string& out_;
  int line_ = 1;
};

struct Draft {
  std::vector<Entry> entries;
  std::optional<PartitionsSpec> partitions;  ///< set when anything about partitions differs from the default
  std::string partitions_from;               ///< comment line for the section
};

// Writes the draft; returns the text, the line -> entry map and the first line of the partitions section.
std::string render(const Draft& draft, const std::string& header, std::map<int, const Entry*>& line_of,
                   int& partitions_line) {
  std::string out;
  YamlWriter w(out);
  w.raw(header);
  // Sections in smd.yaml's order, then any section the list does not name yet, so no converted key is dropped.
  std::vector<std::string> sections = kSectionOrder;
  for (const Entry& e : draft.entries) {
    if (std::find(sections.begin(), sections.end(), e.path[0]) == sections.end()) sections.push_back(e.path[0]);
  }
  for (const std::string& section : sections) {
    std::vector<const Entry*> in;
    for (const Entry& e : draft.entries) {
      if (e.path[0] == section) in.push_back(&e);
    }
    if (in.empty()) continue;
    w.line("");
    w.emit(in, 0, line_of);
  }
  partitions_line = 0;
  if (draft.partitions) {
    w.line("");
    w.line("# " + comment_text(draft.partitions_from));
    partitions_line = w.next_line();
    w.raw(partitions_yaml(*draft.partitions));
  }
  return out;
}

// "file:LINE:COL: ..." -> LINE, or 0.
int line_of_error(const std::string& message, const std::string& source) {
  if (message.compare(0, source.size() + 1, source + ":") != 0) return 0;
  return std::atoi(message.c_str() + source.size() + 1);
}

// The conversions that make one YAML scalar of one value: how the value reads, and what a refusal says.
// Options with such a conversion differ only in this row (the table keeps one code path for all of them).
struct ScalarConversion {
  OpenSmConversion conversion;
  const char* refusal;                                              ///< "not a number"
  std::optional<std::string> (*to_yaml)(const std::string& value);  ///< nullopt: refused
};

// `format(*value)`, or nullopt (a refusal) when the value did not read.
template <typename T, typename Format>
std::optional<std::string> format_if(const std::optional<T>& value, Format format) {
  if (!value) return std::nullopt;
  return format(*value);
}

std::optional<std::string> as_decimal(const std::string& v) {
  return format_if(parse_number(v), [](std::uint64_t n) { return std::to_string(n); });
}
std::optional<std::string> as_hex64(const std::string& v) { return format_if(parse_number(v), hex64_text); }
std::optional<std::string> as_bool(const std::string& v) {
  return format_if(parse_bool(v), [](bool b) { return std::string(b ? "true" : "false"); });
}
std::optional<std::string> as_not_bool(const std::string& v) {
  return format_if(parse_bool(v), [](bool b) { return std::string(b ? "false" : "true"); });
}
// OpenSM counts milliseconds, smd whole seconds: rounded up, never below 1, so nothing fires sooner.
std::optional<std::string> as_seconds(const std::string& v) {
  return format_if(parse_number(v),
                   [](std::uint64_t ms) { return std::to_string(std::max<std::uint64_t>(1, (ms + 999) / 1000)); });
}
std::optional<std::string> as_log_level(const std::string& v) { return format_if(parse_number(v), level_of_log_flags); }

const ScalarConversion kScalarConversions[] = {
    {OpenSmConversion::kNumber, "not a number", as_decimal},
    {OpenSmConversion::kHex64, "not a 64-bit number", as_hex64},
    {OpenSmConversion::kBool, "not TRUE or FALSE", as_bool},
    {OpenSmConversion::kNotBool, "not TRUE or FALSE", as_not_bool},
    {OpenSmConversion::kMsToSeconds, "not a number of milliseconds", as_seconds},
    {OpenSmConversion::kHighLimit, "not -1 or a number", as_decimal},  // -1 (no limit) is taken before the table
    {OpenSmConversion::kLogFlags, "not a bit mask", as_log_level},
};

const ScalarConversion* scalar_conversion(OpenSmConversion conversion) {
  for (const ScalarConversion& c : kScalarConversions) {
    if (c.conversion == conversion) return &c;
  }
  return nullptr;
}

// "[a, b, c]": a YAML flow sequence of already-formatted items.
template <typename Items, typename Format>
std::string flow_list(const Items& items, std::size_t count, Format format) {
  std::string list = "[";
  for (std::size_t k = 0; k < count; ++k) list += (k ? ", " : "") + format(items[k]);
  return list + "]";
}

const char* const kImportHeader =
    " by `smd import-opensm-conf`.\n"
    "# Each key names the opensm.conf line it came from; options at OpenSM's default are left "
    "out (smd's\n# defaults apply; see config/smd.yaml), and what could not be carried over "
    "is listed at the end.\n";

// One conversion of one opensm.conf. The steps are OpenSM's own order of reading: the options (the last
// of a repeated one wins), then the partitions file with the enforcement options over it, then the QoS
// policy file (which may name those partitions), and last the check that smd's loader takes the result.
// The class holds only what those steps share.
class Importer {
 public:
  Importer(const std::vector<OpenSmSetting>& settings, const std::string& source, const OpenSmImportInputs& inputs)
      : settings_(settings), source_(source), inputs_(inputs), partitions_path_(inputs.partitions_file) {}

  Result<OpenSmImport> run() {
    find_last_of_each();
    for (std::size_t i = 0; i < settings_.size(); ++i) {
      if (last_[settings_[i].name] == i) convert_setting(i);
    }
    SMD_RETURN_IF_ERROR(read_partitions()) << partitions_origin();
    apply_enforcement();
    note_defaults_differ();
    if (qos_setting_) {
      SMD_RETURN_IF_ERROR(read_qos_policy()) << qos_origin();
    } else if (qos_file_setting_) {
      note_unread_qos_file();
    }
    if (partitions_changed_) {
      draft_.partitions = partitions_;
      draft_.partitions_from = partitions_from_;
    }
    return write_until_it_loads();
  }

 private:
  std::string at(const OpenSmSetting& s) const { return source_ + ":" + std::to_string(s.line); }
  void not_carried(const OpenSmSetting& s, std::string_view fate, const std::string& why) {
    result_.not_carried.push_back(at(s) + ": " + s.name + " " + s.value + ": " + std::string(fate) + ": " + why);
  }
  void add(const OpenSmSetting& s, std::size_t index, std::string_view key, std::string value) {
    draft_.entries.push_back(
        Entry{split_key_path(key), std::move(value), at(s) + " " + s.name + " " + s.value, index, at(s).size()});
  }

  // The last of a repeated option wins, as in OpenSM; the earlier ones are reported (per-SL options set
  // one SL per line, so each of their lines counts).
  void find_last_of_each() {
    for (std::size_t i = 0; i < settings_.size(); ++i) {
      const OpenSmSetting& s = settings_[i];
      const OpenSmOption* row = find_opensm_option(s.name);
      const bool per_sl = row != nullptr && row->conversion == OpenSmConversion::kPerSl;
      if (auto it = last_.find(s.name); it != last_.end() && !per_sl) {
        result_.warnings.push_back(at(s) + ": " + s.name + " given again (line " +
                                   std::to_string(settings_[it->second].line) + "); this one counts, as in OpenSM");
      }
      last_[s.name] = i;
    }
  }

  // One option that counts: the files it names are only noted here (read once all options are known);
  // a value at OpenSM's default, or at what smd always does, needs no key.
  void convert_setting(std::size_t i) {
    const OpenSmSetting& s = settings_[i];
    const OpenSmOption* o = find_opensm_option(s.name);
    if (o == nullptr) {
      result_.warnings.push_back(at(s) + ": " + s.name + " is not an OpenSM 3.3.23 option: ignored");
      return;
    }
    if (o->conversion == OpenSmConversion::kQosPolicyFile) {
      qos_file_setting_ = i;
      return;
    }
    if (s.name == "qos" && parse_bool(s.value).value_or(false)) qos_setting_ = i;
    if (o->conversion == OpenSmConversion::kPartitionsFile) {
      // OpenSM reads its default path too: the file is looked for whatever the value.
      if (partitions_path_.empty() && !is_null(s.value)) partitions_path_ = s.value;
      partitions_line_ = s.line;
      return;
    }
    if (o->conversion == OpenSmConversion::kPerSl) {
      convert_per_sl(s, i, *o);
      return;
    }
    if (same_value(s.value, std::string(o->opensm_default))) {
      ++result_.at_default;
      return;
    }
    if (!o->smd_value.empty() && same_value(s.value, std::string(o->smd_value))) {
      result_.carried.push_back(at(s) + ": " + s.name + " " + s.value + " -> (smd always behaves so)");
      return;
    }
    set_by_file_.insert(o->name);
    if (o->conversion == OpenSmConversion::kNone) {
      not_carried(s, to_string(o->fate), std::string(o->note.empty() ? "no policy key" : o->note));
      return;
    }
    convert_value(s, i, *o);
  }

  // OpenSM sets one SL per line; the list keeps every line's SL, the last line for an SL winning.
  void convert_per_sl(const OpenSmSetting& s, std::size_t i, const OpenSmOption& o) {
    std::array<std::uint64_t, 16> values{};
    std::size_t used = 0;
    bool any = false;
    for (const OpenSmSetting& line : settings_) {
      if (line.name != s.name) continue;
      const std::size_t space = line.value.find_first_of(" \t");
      const auto sl = parse_number(line.value.substr(0, space));
      const auto v = space == std::string::npos
                         ? std::optional<std::uint64_t>{}
                         : parse_number(line.value.substr(line.value.find_first_not_of(" \t", space)));
      if (!sl || !v || *sl > 15) {
        not_carried(line, "not converted", "expected `SL value` with SL 0..15");
        continue;
      }
      values[*sl] = *v;
      used = std::max<std::size_t>(used, *sl + 1);
      any = any || *v != 0;
    }
    if (!any) {
      ++result_.at_default;
      return;
    }
    set_by_file_.insert(o.name);
    add(s, i, o.smd_key, flow_list(values, used, [](std::uint64_t v) { return std::to_string(v); }));
  }

  // A value that differs from OpenSM's default, by its option's conversion. The enforcement options and
  // allow_both_pkeys are not keys of their own: they apply over the partitions file, after it is read.
  void convert_value(const OpenSmSetting& s, std::size_t i, const OpenSmOption& o) {
    auto bad = [&](const std::string& why) { not_carried(s, "not converted", why); };
    if (o.conversion == OpenSmConversion::kHighLimit && s.value == "-1") return;  // OpenSM's "no limit"
    if (const ScalarConversion* scalar = scalar_conversion(o.conversion)) {
      const std::optional<std::string> yaml = scalar->to_yaml(s.value);
      if (!yaml) {
        bad(scalar->refusal);
      } else if (o.smd_key == "partitions.allow_both_pkeys") {
        allow_both_ = *yaml == "true";
      } else {
        add(s, i, o.smd_key, *yaml);
      }
      return;
    }
    switch (o.conversion) {
      case OpenSmConversion::kString: {
        if (is_null(s.value)) break;
        const auto quoted = yaml_double_quoted(s.value);
        if (!quoted) {
          bad(quoted.error().message);
          break;
        }
        add(s, i, o.smd_key, *quoted);
        // OpenSM's unicast manager reads it for minhop's port order and dor's dimensions alike.
        if (s.name == "port_search_ordering_file") add(s, i, "routing.dor.port_search_ordering_file", *quoted);
        if (s.name == "lfts_file" && !is_null(s.value) && s.value.front() != '/') {
          result_.warnings.push_back(at(s) + ": lfts_file " + s.value +
                                     " is relative: smd takes it from the policy file's folder, OpenSM from its "
                                     "working folder");
        }
        break;
      }
      case OpenSmConversion::kEngines: convert_engines(s, i, o); break;
      case OpenSmConversion::kPartEnforce: {
        auto e = enforcement_of(s.value);
        if (!e.ok()) {
          bad(e.error().message);
          break;
        }
        part_enforce_ = *e;
        break;
      }
      case OpenSmConversion::kNoEnforcement: {
        const auto v = parse_bool(s.value);
        if (!v) {
          bad("not TRUE or FALSE");
          break;
        }
        no_enforcement_ = *v;
        break;
      }
      case OpenSmConversion::kRootGuidFile: convert_root_guid_file(s, i); break;
      case OpenSmConversion::kRoutingOrderFile:
        // OpenSM's minhop, updn and dnup route in the file's order (osm_ucast_mgr.c); ftree and dfsssp do not.
        if (!is_null(s.value)) {
          const auto quoted = yaml_double_quoted(s.value);
          if (!quoted) {
            bad(quoted.error().message);
            break;
          }
          add(s, i, "routing.minhop.guid_routing_order_file", *quoted);
          add(s, i, "routing.updn.guid_routing_order_file", *quoted);
          add(s, i, "routing.dnup.guid_routing_order_file", *quoted);
        }
        break;
      case OpenSmConversion::kTorusConfig:
        if (!names_torus_engine()) not_carried(s, "not converted", "routing_engine does not name torus-2QoS");
        break;
      default: break;  // the scalar conversions above, and the options noted in convert_setting
    }
  }

  // routing_engine: the engines smd has, in order, each once, with minhop last as OpenSM's fallback.
  void convert_engines(const OpenSmSetting& s, std::size_t i, const OpenSmOption& o) {
    std::vector<std::string> kept;
    std::size_t start = 0;
    while (start <= s.value.size()) {
      std::size_t comma = s.value.find(',', start);
      if (comma == std::string::npos) comma = s.value.size();
      std::string name = s.value.substr(start, comma - start);
      name.erase(0, name.find_first_not_of(" \t"));
      name.erase(name.find_last_not_of(" \t") + 1);
      start = comma + 1;
      if (name.empty()) continue;
      if (std::find(kSmdEngines.begin(), kSmdEngines.end(), name) == kSmdEngines.end()) {
        not_carried(
            s, "missing",
            "engine " + name +
                " is not in smd (smd has minhop, updn, dnup, ftree, sssp, dfsssp, file, dor, lash, nue, torus-2QoS)");
        continue;
      }
      if (std::find(kept.begin(), kept.end(), name) == kept.end()) kept.push_back(name);
    }
    if (kept.empty()) return;  // smd's default chain
    if (std::find(kept.begin(), kept.end(), "file") != kept.end() && !names_lfts_file()) {
      result_.warnings.push_back(at(s) +
                                 ": routing_engine names file but no lfts_file is set: the file engine "
                                 "has no dump and the chain's next engine routes, as OpenSM falls back");
    }
    if (std::find(kept.begin(), kept.end(), "torus-2QoS") != kept.end()) {
      // OpenSM reads torus_config (its default path when unset) only for this engine.
      const auto it = last_.find("torus_config");
      const bool set = it != last_.end() && !is_null(settings_[it->second].value);
      const auto quoted = yaml_double_quoted(set ? settings_[it->second].value : kOpenSmTorusConfigDefault);
      if (quoted) {
        add(s, i, "routing.torus_2qos.config_file", *quoted);
      } else {
        not_carried(settings_[it->second], "not converted", quoted.error().message);
      }
    }
    if (std::find(kept.begin(), kept.end(), "minhop") == kept.end()) kept.push_back("minhop");
    add(s, i, o.smd_key, flow_list(kept, kept.size(), [](const std::string& name) { return name; }));
  }

  // Whether routing_engine names torus-2QoS (then convert_engines carries torus_config).
  bool names_torus_engine() const {
    const auto it = last_.find("routing_engine");
    return it != last_.end() && settings_[it->second].value.find("torus-2QoS") != std::string::npos;
  }

  // Whether the option that counts for lfts_file names a file (routing_engine file needs one).
  bool names_lfts_file() const {
    const auto it = last_.find("lfts_file");
    return it != last_.end() && !is_null(settings_[it->second].value);
  }

  // root_guid_file: one GUID a line (# comments); the roots of both updn and ftree, as OpenSM uses the
  // one file for both. A file that cannot be read or holds a non-GUID is not carried, with the reason.
  void convert_root_guid_file(const OpenSmSetting& s, std::size_t i) {
    if (is_null(s.value)) return;
    auto text = inputs_.read_file(s.value, "root GUID file");
    if (!text.ok()) {
      not_carried(s, "not converted", text.error().message);
      return;
    }
    std::vector<std::uint64_t> roots;
    std::size_t pos = 0;
    int line_no = 0;
    while (pos < text->size()) {
      std::size_t end = text->find('\n', pos);
      if (end == std::string::npos) end = text->size();
      std::string line = text->substr(pos, end - pos);
      pos = end + 1;
      ++line_no;
      line.erase(0, line.find_first_not_of(" \t\r"));
      line.erase(line.find_last_not_of(" \t\r") + 1);
      if (line.empty() || line[0] == '#') continue;
      const auto guid = parse_number(line);
      if (!guid || *guid == 0) {
        not_carried(s, "not converted",
                    s.value + ":" + std::to_string(line_no) + ": '" + line.substr(0, 40) + "' is not a GUID");
        return;
      }
      roots.push_back(*guid);
    }
    if (roots.empty()) return;
    const std::string list = flow_list(roots, roots.size(), hex64_text);
    add(s, i, "routing.updn.roots", list);
    add(s, i, "routing.ftree.roots", list);
  }

  // Where the partitions file came from, for the context of its errors.
  std::string partitions_origin() const {
    if (!inputs_.partitions_file.empty()) return "--partitions";
    if (partitions_line_) return source_ + ":" + std::to_string(partitions_line_) + ": partition_config_file";
    return "OpenSM's default partition_config_file";
  }

  // The partitions file becomes the partitions: section. One named on the command line must be there; one
  // named by opensm.conf that is missing is OpenSM's no-file case (the default partition), reported unless
  // it is OpenSM's default path.
  Status read_partitions() {
    const bool named_by_option = inputs_.partitions_file.empty();
    if (partitions_path_.empty()) partitions_path_ = kOpenSmPartitionsDefault;
    auto text = inputs_.read_file(partitions_path_, "partitions file");
    if (!text.ok()) {
      if (!named_by_option) return text.error();
      if (partitions_path_ != kOpenSmPartitionsDefault) {
        result_.warnings.push_back(source_ + ":" + std::to_string(partitions_line_) +
                                   ": partition_config_file: " + text.error().message +
                                   "; OpenSM then runs with its default partition, and so does smd");
      }
      return Ok{};
    }
    auto imported = parse_partitions_conf(*text, partitions_path_);
    if (!imported.ok()) return imported.error();
    for (const std::string& w : imported->warnings) result_.warnings.push_back(w);
    partitions_ = std::move(imported->spec);
    partitions_changed_ = true;
    partitions_from_ = "partitions: converted from " + partitions_path_;
    result_.carried.push_back((partitions_line_ ? source_ + ":" + std::to_string(partitions_line_) + ": " : "") +
                              "partition_config_file " + partitions_path_ + " -> partitions: (" +
                              std::to_string(partitions_.partitions.size()) + " partitions)");
    return Ok{};
  }

  // part_enforce, no_partition_enforcement and allow_both_pkeys over what the file (or the default) set.
  void apply_enforcement() {
    if (no_enforcement_) part_enforce_ = PartitionEnforcement::kOff;
    if (part_enforce_ && *part_enforce_ != partitions_.enforcement) {
      partitions_.enforcement = *part_enforce_;
      partitions_changed_ = true;
    }
    if (allow_both_ && *allow_both_ != partitions_.allow_both_pkeys) {
      partitions_.allow_both_pkeys = *allow_both_;
      partitions_changed_ = true;
    }
  }

  // Options left at OpenSM's default where smd's default differs: listed, so the difference is a choice.
  void note_defaults_differ() {
    for (const OpenSmOption& o : opensm_options()) {
      if (o.smd_default.empty() || set_by_file_.contains(o.name)) continue;
      result_.defaults_differ.push_back(std::string(o.name) + " " + std::string(o.opensm_default) + " -> " +
                                        std::string(o.smd_key) + ": " + std::string(o.smd_default));
    }
  }

  // The QoS policy file's path: the command line's, else qos_policy_file's, else OpenSM's default.
  std::string qos_path() const {
    if (!inputs_.qos_policy_file.empty()) return inputs_.qos_policy_file;
    if (qos_file_setting_ && !is_null(settings_[*qos_file_setting_].value)) return settings_[*qos_file_setting_].value;
    return kOpenSmQosPolicyDefault;
  }

  // Where the QoS policy file came from, for the context of its errors.
  std::string qos_origin() const {
    if (!inputs_.qos_policy_file.empty()) return "--qos-policy";
    if (qos_file_setting_) return at(settings_[*qos_file_setting_]) + ": qos_policy_file";
    return at(settings_[*qos_setting_]) + ": qos TRUE";
  }

  // qos-policy.conf (read because qos is TRUE, as OpenSM): its lists go under qos: as one line each. The
  // missing-file rules are the partitions file's.
  Status read_qos_policy() {
    const std::string path = qos_path();
    const std::size_t from = qos_file_setting_.value_or(*qos_setting_);
    auto text = inputs_.read_file(path, "QoS policy file");
    if (!text.ok()) {
      if (!inputs_.qos_policy_file.empty()) return text.error();
      if (path != kOpenSmQosPolicyDefault) {
        result_.warnings.push_back(at(settings_[from]) + ": qos_policy_file: " + text.error().message +
                                   "; OpenSM then gives every path the default QoS level, and so does smd");
      }
      return Ok{};
    }
    auto qos = parse_qos_policy_conf(*text, path, partitions_);
    if (!qos.ok()) return qos.error();
    for (const std::string& w : qos->warnings) result_.warnings.push_back(w);
    for (const QosYamlKey& key : qos_list_keys(qos->spec)) {
      draft_.entries.push_back(
          Entry{{"qos", key.key}, flow_sequence(key), at(settings_[from]) + " qos_policy_file " + path, from,
                at(settings_[from]).size()});
    }
    return Ok{};
  }

  // qos_policy_file without qos TRUE: OpenSM does not read it.
  void note_unread_qos_file() {
    const OpenSmSetting& s = settings_[*qos_file_setting_];
    if (same_value(s.value, kOpenSmQosPolicyDefault)) {
      ++result_.at_default;
    } else {
      not_carried(s, "partial", "OpenSM reads it only with qos TRUE; this file sets no qos");
    }
  }

  // The report and the written policy once it loads: the carried keys, then as comments what stays
  // at a differing default and what was not carried.
  OpenSmImport finish(std::string yaml) {
    for (const Entry& e : draft_.entries) {
      std::string key;
      for (const std::string& p : e.path) key += (key.empty() ? "" : ".") + p;
      result_.carried.push_back(e.from.substr(0, e.where) + ": " + e.from.substr(std::min(e.where + 1, e.from.size())) +
                                " -> " + key + ": " + e.value);
    }
    if (!result_.defaults_differ.empty()) {
      yaml += "\n# Left at OpenSM's default in " + comment_text(source_) +
              ", where smd's default differs (smd's applies; write the key to keep OpenSM's):\n";
      for (const std::string& d : result_.defaults_differ) yaml += "#   " + comment_text(d) + "\n";
    }
    if (!result_.not_carried.empty()) {
      yaml += "\n# Not carried over from " + comment_text(source_) + ":\n";
      for (const std::string& n : result_.not_carried) yaml += "#   " + comment_text(n) + "\n";
    }
    result_.yaml = std::move(yaml);
    return std::move(result_);
  }

  // Load what was written; a value the loader refuses moves to the not-carried list, and the rest is
  // written again, until it loads. Each failed round removes at least one entry, so it ends.
  Result<OpenSmImport> write_until_it_loads() {
    const std::string header = "# smd policy converted from " + comment_text(source_) + kImportHeader;
    // Named as the written file, so the loader resolves relative paths from its folder (none: the working
    // directory, where standard output's reader presumably keeps it).
    const std::string converted =
        inputs_.policy_path.empty() ? std::string("(converted)") : inputs_.policy_path + " (converted)";
    const std::size_t rounds = draft_.entries.size() + 1;
    for (std::size_t round = 0; round < rounds; ++round) {
      std::map<int, const Entry*> line_of;
      int part_line = 0;
      std::string yaml = render(draft_, header, line_of, part_line);
      auto loaded = load_policy_string(yaml, converted);
      if (loaded.ok()) return finish(std::move(yaml));
      const auto it = line_of.find(line_of_error(loaded.error().message, converted));
      if (it == line_of.end()) {
        // Not one of the converted keys: the partitions section the file gave.
        return make_error(ErrorCode::kInvalidInput,
                          partitions_path_ + " converted, but the policy loader refused it: " + loaded.error().message);
      }
      const std::size_t bad_setting = it->second->setting;
      // "SOURCE:LINE:COL: key: what" -> "key: what", first line only.
      std::string why = loaded.error().message.substr(0, loaded.error().message.find('\n'));
      if (const std::size_t cut = why.find(": "); cut != std::string::npos) why = why.substr(cut + 2);
      not_carried(settings_[bad_setting], "refused by smd", why);
      std::erase_if(draft_.entries, [bad_setting](const Entry& e) { return e.setting == bad_setting; });
    }
    return make_error(ErrorCode::kInternal, "the converted policy did not load");
  }

  const std::vector<OpenSmSetting>& settings_;
  const std::string& source_;
  const OpenSmImportInputs& inputs_;
  OpenSmImport result_;
  Draft draft_;
  std::map<std::string, std::size_t> last_;  // option name -> index of the line that counts
  std::set<std::string_view> set_by_file_;   // options the file gives a non-default value
  PartitionsSpec partitions_ = default_partitions();
  bool partitions_changed_ = false;
  std::string partitions_from_ = "partitions: OpenSM's default (no partitions file)";
  std::string partitions_path_;
  int partitions_line_ = 0;  // the partition_config_file line, 0 when the file has none
  std::optional<PartitionEnforcement> part_enforce_;
  bool no_enforcement_ = false;
  std::optional<bool> allow_both_;
  std::optional<std::size_t> qos_file_setting_;  // the qos_policy_file line
  std::optional<std::size_t> qos_setting_;       // the qos line, when TRUE
};

}  // namespace

Result<OpenSmImport> import_opensm_conf(const std::vector<OpenSmSetting>& settings, const std::string& source,
                                        const OpenSmImportInputs& inputs) {
  return Importer(settings, source, inputs).run();
}

}  // namespace smd
