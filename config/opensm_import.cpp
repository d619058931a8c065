#include "config/opensm_import.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>

#include "config/partitions_conf.h"
#include "config/partitions_yaml.h"
#include "config/policy_loader.h"
#include "config/qos_policy_conf.h"
#include "config/qos_yaml.h"
#include "routing/partitions/partition_spec.h"

namespace smd {

namespace {

// Sections in the order of config/smd.yaml, so a converted file reads like the annotated default.
const std::vector<std::string> kSectionOrder = {"sm",       "routing", "lid",  "mad", "log",     "control", "metrics",
                                                "security", "ports",   "roce", "sa",  "perfmgr", "health",  "multicast", "congestion_control", "qos"};

// OpenSM's engine names that smd has (routing_engine).
const std::vector<std::string> kSmdEngines = {"minhop", "updn", "ftree", "sssp", "dfsssp"};

constexpr const char* kOpenSmPartitionsDefault = "/etc/opensm/partitions.conf";
constexpr const char* kOpenSmQosPolicyDefault = "/etc/opensm/qos-policy.conf";

struct Entry {
  std::vector<std::string> path;  ///< the policy key split at '.'
  std::string value;              ///< YAML text
  std::string from;               ///< "FILE:LINE name value", for the comment and the report
  std::size_t setting = 0;        ///< index into the settings
};

std::vector<std::string> split_key(std::string_view key) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = key.find('.', start);
    out.emplace_back(key.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) return out;
    start = dot + 1;
  }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::optional<std::uint64_t> parse_unsigned(const std::string& text) {
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
  const std::string t = lower(text);
  if (t == "true" || t == "1") return true;
  if (t == "false" || t == "0") return false;
  return std::nullopt;
}

bool is_null(const std::string& text) { return text.empty() || text == "(null)"; }

// Values compared as OpenSM reads them: numbers by value (0x07 == 7), booleans and words without case.
bool same_value(const std::string& a, const std::string& b) {
  if (a == b) return true;
  if (is_null(a) && is_null(b)) return true;
  const auto na = parse_unsigned(a), nb = parse_unsigned(b);
  if (na && nb) return *na == *nb;
  return lower(a) == lower(b);
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string hex64(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
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
  const std::string w = lower(word);
  if (w == "both") return PartitionEnforcement::kBoth;
  if (w == "in") return PartitionEnforcement::kIn;
  if (w == "out") return PartitionEnforcement::kOut;
  if (w == "off") return PartitionEnforcement::kOff;
  return make_error(ErrorCode::kInvalidInput, "not one of both, in, out, off");
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
        line(indent + key + ": " + group[0]->value + "  # " + group[0]->from);
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
    w.line("# " + draft.partitions_from);
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

}  // namespace

Result<OpenSmImport> import_opensm_conf(const std::vector<OpenSmSetting>& settings, const std::string& source,
                                        const OpenSmImportInputs& inputs) {
  OpenSmImport result;
  Draft draft;

  // The last of a repeated option wins, as in OpenSM.
  std::map<std::string, std::size_t> last;
  for (std::size_t i = 0; i < settings.size(); ++i) {
    const OpenSmSetting& s = settings[i];
    const OpenSmOption* row = find_opensm_option(s.name);
    const bool per_sl = row != nullptr && row->conversion == OpenSmConversion::kPerSl;  // every line counts
    if (auto it = last.find(s.name); it != last.end() && !per_sl) {
      result.warnings.push_back(source + ":" + std::to_string(s.line) + ": " + s.name + " given again (line " +
                                std::to_string(settings[it->second].line) + "); this one counts, as in OpenSM");
    }
    last[s.name] = i;
  }

  auto at = [&](const OpenSmSetting& s) { return source + ":" + std::to_string(s.line); };
  std::set<std::string_view> set_by_file;  // options the file gives a non-default value
  auto not_carried = [&](const OpenSmSetting& s, std::string_view fate, const std::string& why) {
    result.not_carried.push_back(at(s) + ": " + s.name + " " + s.value + ": " + std::string(fate) + ": " + why);
  };
  auto add = [&](const OpenSmSetting& s, std::size_t index, std::string_view key, std::string value) {
    Entry e{split_key(key), std::move(value), at(s) + " " + s.name + " " + s.value, index};
    draft.entries.push_back(std::move(e));
  };

  PartitionsSpec partitions = default_partitions();
  bool partitions_changed = false;
  std::string partitions_from = "partitions: OpenSM's default (no partitions file)";
  std::optional<PartitionEnforcement> part_enforce;
  bool no_enforcement = false;
  std::optional<bool> allow_both;
  std::string partitions_path = inputs.partitions_file;
  int partitions_line = 0;
  std::optional<std::size_t> qos_file_setting;  // the qos_policy_file line
  std::optional<std::size_t> qos_setting;       // the qos line, when TRUE

  for (std::size_t i = 0; i < settings.size(); ++i) {
    const OpenSmSetting& s = settings[i];
    if (last[s.name] != i) continue;
    const OpenSmOption* o = find_opensm_option(s.name);
    if (o == nullptr) {
      result.warnings.push_back(at(s) + ": " + s.name + " is not an OpenSM 3.3.23 option: ignored");
      continue;
    }
    if (o->conversion == OpenSmConversion::kQosPolicyFile) {
      qos_file_setting = i;  // read after the loop, once partitions and qos are known
      continue;
    }
    if (s.name == "qos" && parse_bool(s.value).value_or(false)) qos_setting = i;
    if (o->conversion == OpenSmConversion::kPartitionsFile) {
      // OpenSM reads its default path too: the file is looked for whatever the value.
      if (partitions_path.empty() && !is_null(s.value)) partitions_path = s.value;
      partitions_line = s.line;
      continue;
    }
    if (o->conversion == OpenSmConversion::kPerSl) {
      // OpenSM sets one SL per line; the list keeps every line's SL, the last line for an SL winning.
      std::array<std::uint64_t, 16> values{};
      std::size_t used = 0;
      bool any = false;
      for (const OpenSmSetting& line : settings) {
        if (line.name != s.name) continue;
        const std::size_t space = line.value.find_first_of(" \t");
        const auto sl = parse_unsigned(line.value.substr(0, space));
        const auto v = space == std::string::npos
                           ? std::optional<std::uint64_t>{}
                           : parse_unsigned(line.value.substr(line.value.find_first_not_of(" \t", space)));
        if (!sl || !v || *sl > 15) {
          not_carried(line, "not converted", "expected `SL value` with SL 0..15");
          continue;
        }
        values[*sl] = *v;
        used = std::max<std::size_t>(used, *sl + 1);
        any = any || *v != 0;
      }
      if (!any) {
        ++result.at_default;
        continue;
      }
      set_by_file.insert(o->name);
      std::string list = "[";
      for (std::size_t k = 0; k < used; ++k) list += (k ? ", " : "") + std::to_string(values[k]);
      add(s, i, o->smd_key, list + "]");
      continue;
    }
    if (same_value(s.value, std::string(o->opensm_default))) {
      ++result.at_default;
      continue;
    }
    if (!o->smd_value.empty() && same_value(s.value, std::string(o->smd_value))) {
      result.carried.push_back(at(s) + ": " + s.name + " " + s.value + " -> (smd always behaves so)");
      continue;
    }
    set_by_file.insert(o->name);
    const std::string fate(to_string(o->fate));
    const bool convertible = o->conversion != OpenSmConversion::kNone;
    if (!convertible) {
      not_carried(s, fate, std::string(o->note.empty() ? "no policy key" : o->note));
      continue;
    }
    auto bad = [&](const std::string& why) { not_carried(s, "not converted", why); };
    switch (o->conversion) {
      case OpenSmConversion::kNumber: {
        const auto v = parse_unsigned(s.value);
        if (!v) {
          bad("not a number");
          break;
        }
        add(s, i, o->smd_key, std::to_string(*v));
        break;
      }
      case OpenSmConversion::kHex64: {
        const auto v = parse_unsigned(s.value);
        if (!v) {
          bad("not a 64-bit number");
          break;
        }
        add(s, i, o->smd_key, hex64(*v));
        break;
      }
      case OpenSmConversion::kBool: {
        const auto v = parse_bool(s.value);
        if (!v) {
          bad("not TRUE or FALSE");
          break;
        }
        if (o->smd_key == "partitions.allow_both_pkeys") {
          allow_both = *v;
          break;
        }
        add(s, i, o->smd_key, *v ? "true" : "false");
        break;
      }
      case OpenSmConversion::kNotBool: {
        const auto v = parse_bool(s.value);
        if (!v) {
          bad("not TRUE or FALSE");
          break;
        }
        add(s, i, o->smd_key, *v ? "false" : "true");
        break;
      }
      case OpenSmConversion::kString:
        if (!is_null(s.value)) add(s, i, o->smd_key, quoted(s.value));
        break;
      case OpenSmConversion::kMsToSeconds: {
        const auto v = parse_unsigned(s.value);
        if (!v) {
          bad("not a number of milliseconds");
          break;
        }
        add(s, i, o->smd_key, std::to_string(std::max<std::uint64_t>(1, (*v + 999) / 1000)));
        break;
      }
      case OpenSmConversion::kHighLimit: {
        if (s.value == "-1") break;
        const auto v = parse_unsigned(s.value);
        if (!v) {
          bad("not -1 or a number");
          break;
        }
        add(s, i, o->smd_key, std::to_string(*v));
        break;
      }
      case OpenSmConversion::kLogFlags: {
        const auto v = parse_unsigned(s.value);
        if (!v) {
          bad("not a bit mask");
          break;
        }
        add(s, i, o->smd_key, level_of_log_flags(*v));
        break;
      }
      case OpenSmConversion::kEngines: {
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
            not_carried(s, "missing", "engine " + name + " is not in smd (smd has minhop, updn, ftree, sssp, dfsssp)");
            continue;
          }
          if (std::find(kept.begin(), kept.end(), name) == kept.end()) kept.push_back(name);
        }
        if (kept.empty()) break;  // smd's default chain
        if (std::find(kept.begin(), kept.end(), "minhop") == kept.end()) kept.push_back("minhop");
        std::string list = "[";
        for (std::size_t k = 0; k < kept.size(); ++k) list += (k ? ", " : "") + kept[k];
        add(s, i, o->smd_key, list + "]");
        break;
      }
      case OpenSmConversion::kPartEnforce: {
        auto e = enforcement_of(s.value);
        if (!e.ok()) {
          bad(e.error().message);
          break;
        }
        part_enforce = *e;
        break;
      }
      case OpenSmConversion::kNoEnforcement: {
        const auto v = parse_bool(s.value);
        if (!v) {
          bad("not TRUE or FALSE");
          break;
        }
        no_enforcement = *v;
        break;
      }
      case OpenSmConversion::kRootGuidFile: {
        if (is_null(s.value)) break;
        auto text = inputs.read_file(s.value, "root GUID file");
        if (!text.ok()) {
          not_carried(s, "not converted", text.error().message);
          break;
        }
        std::string list = "[";
        std::size_t count = 0;
        std::size_t pos = 0;
        bool ok = true;
        int line_no = 0;
        while (pos < text->size() && ok) {
          std::size_t end = text->find('\n', pos);
          if (end == std::string::npos) end = text->size();
          std::string line = text->substr(pos, end - pos);
          pos = end + 1;
          ++line_no;
          line.erase(0, line.find_first_not_of(" \t\r"));
          line.erase(line.find_last_not_of(" \t\r") + 1);
          if (line.empty() || line[0] == '#') continue;
          const auto guid = parse_unsigned(line);
          if (!guid || *guid == 0) {
            not_carried(s, "not converted",
                        s.value + ":" + std::to_string(line_no) + ": '" + line.substr(0, 40) + "' is not a GUID");
            ok = false;
            break;
          }
          list += (count++ ? ", " : "") + hex64(*guid);
        }
        if (!ok || count == 0) break;
        add(s, i, "routing.updn.roots", list + "]");
        add(s, i, "routing.ftree.roots", list + "]");
        break;
      }
      case OpenSmConversion::kPartitionsFile:
      case OpenSmConversion::kQosPolicyFile:
      case OpenSmConversion::kPerSl:
      case OpenSmConversion::kNone: break;
    }
  }

  // partitions: the file, then enforcement and allow_both_pkeys on top of it.
  const bool named_by_option = inputs.partitions_file.empty();
  if (partitions_path.empty()) partitions_path = kOpenSmPartitionsDefault;
  auto text = inputs.read_file(partitions_path, "partitions file");
  if (text.ok()) {
    auto imported = parse_partitions_conf(*text, partitions_path);
    if (!imported.ok()) return imported.error();
    for (const std::string& w : imported->warnings) result.warnings.push_back(w);
    partitions = std::move(imported->spec);
    partitions_changed = true;
    partitions_from = "partitions: converted from " + partitions_path;
    result.carried.push_back((partitions_line ? source + ":" + std::to_string(partitions_line) + ": " : "") +
                             "partition_config_file " + partitions_path + " -> partitions: (" +
                             std::to_string(partitions.partitions.size()) + " partitions)");
  } else if (!named_by_option) {
    return text.error();  // the operator named it on the command line: it must be there
  } else if (partitions_path != kOpenSmPartitionsDefault) {
    result.warnings.push_back(source + ":" + std::to_string(partitions_line) + ": partition_config_file: " +
                              text.error().message + "; OpenSM then runs with its default partition, and so does smd");
  }
  if (no_enforcement) part_enforce = PartitionEnforcement::kOff;
  if (part_enforce && *part_enforce != partitions.enforcement) {
    partitions.enforcement = *part_enforce;
    partitions_changed = true;
  }
  if (allow_both && *allow_both != partitions.allow_both_pkeys) {
    partitions.allow_both_pkeys = *allow_both;
    partitions_changed = true;
  }
  for (const OpenSmOption& o : opensm_options()) {
    if (o.smd_default.empty() || set_by_file.contains(o.name)) continue;
    result.defaults_differ.push_back(std::string(o.name) + " " + std::string(o.opensm_default) + " -> " +
                                     std::string(o.smd_key) + ": " + std::string(o.smd_default));
  }
  // qos-policy.conf: OpenSM reads it only with qos TRUE; its lists go under qos: as one line each.
  if (qos_setting) {
    const bool named_by_conf = inputs.qos_policy_file.empty();
    std::string qos_path = inputs.qos_policy_file;
    if (qos_path.empty() && qos_file_setting && !is_null(settings[*qos_file_setting].value)) {
      qos_path = settings[*qos_file_setting].value;
    }
    if (qos_path.empty()) qos_path = kOpenSmQosPolicyDefault;
    const std::size_t from = qos_file_setting.value_or(*qos_setting);
    auto qos_text = inputs.read_file(qos_path, "QoS policy file");
    if (qos_text.ok()) {
      auto qos = parse_qos_policy_conf(*qos_text, qos_path, partitions);
      if (!qos.ok()) return qos.error();
      for (const std::string& w : qos->warnings) result.warnings.push_back(w);
      for (const QosYamlKey& key : qos_list_keys(qos->spec)) {
        draft.entries.push_back(
            Entry{{"qos", key.key}, flow_sequence(key), at(settings[from]) + " qos_policy_file " + qos_path, from});
      }
    } else if (!named_by_conf) {
      return qos_text.error();
    } else if (qos_path != kOpenSmQosPolicyDefault) {
      result.warnings.push_back(at(settings[from]) + ": qos_policy_file: " + qos_text.error().message +
                                "; OpenSM then gives every path the default QoS level, and so does smd");
    }
  } else if (qos_file_setting && !same_value(settings[*qos_file_setting].value, kOpenSmQosPolicyDefault)) {
    not_carried(settings[*qos_file_setting], "partial", "OpenSM reads it only with qos TRUE; this file sets no qos");
  } else if (qos_file_setting) {
    ++result.at_default;
  }
  if (partitions_changed) {
    draft.partitions = partitions;
    draft.partitions_from = partitions_from;
  }

  const std::string header = "# smd policy converted from " + source +
                             " by `smd import-opensm-conf`.\n"
                             "# Each key names the opensm.conf line it came from; options at OpenSM's default are left "
                             "out (smd's\n# defaults apply; see config/smd.yaml), and what could not be carried over "
                             "is listed at the end.\n";
  // Load what was written; a value the loader refuses moves to the not-carried list, and the rest is
  // written again, until it loads.
  const std::size_t rounds = draft.entries.size() + 1;  // each failed round removes at least one entry
  for (std::size_t round = 0; round < rounds; ++round) {
    std::map<int, const Entry*> line_of;
    int part_line = 0;
    std::string yaml = render(draft, header, line_of, part_line);
    auto loaded = load_policy_string(yaml, source + " (converted)");
    if (loaded.ok()) {
      for (const Entry& e : draft.entries) {
        std::string key;
        for (const std::string& p : e.path) key += (key.empty() ? "" : ".") + p;
        result.carried.push_back(e.from.substr(0, e.from.find(' ')) + ": " + e.from.substr(e.from.find(' ') + 1) +
                                 " -> " + key + ": " + e.value);
      }
      if (!result.defaults_differ.empty()) {
        yaml += "\n# Left at OpenSM's default in " + source +
                ", where smd's default differs (smd's applies; write the key to keep OpenSM's):\n";
        for (const std::string& d : result.defaults_differ) yaml += "#   " + d + "\n";
      }
      if (!result.not_carried.empty()) {
        yaml += "\n# Not carried over from " + source + ":\n";
        for (const std::string& n : result.not_carried) yaml += "#   " + n + "\n";
      }
      result.yaml = std::move(yaml);
      return result;
    }
    const int bad_line = line_of_error(loaded.error().message, source + " (converted)");
    const auto it = line_of.find(bad_line);
    if (it == line_of.end()) {
      // Not one of the converted keys: the partitions section the file gave.
      return make_error(ErrorCode::kInvalidInput,
                        partitions_path + " converted, but the policy loader refused it: " + loaded.error().message);
    }
    const Entry* bad = it->second;
    const OpenSmSetting& s = settings[bad->setting];
    // "SOURCE:LINE:COL: key: what" -> "key: what", first line only.
    std::string why = loaded.error().message.substr(0, loaded.error().message.find('\n'));
    if (const std::size_t cut = why.find(": "); cut != std::string::npos) why = why.substr(cut + 2);
    not_carried(s, "refused by smd", why);
    const std::size_t bad_setting = bad->setting;
    std::erase_if(draft.entries, [bad_setting](const Entry& e) { return e.setting == bad_setting; });
  }
  return make_error(ErrorCode::kInternal, "the converted policy did not load");
}

}  // namespace smd
