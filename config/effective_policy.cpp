#include "config/effective_policy.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string_view>

#include "config/key_path.h"
#include "config/partitions_yaml.h"
#include "config/policy_loader.h"
#include "config/policy_overrides.h"

namespace smd {

namespace {

bool under(std::string_view path, std::string_view section) {
  return path.size() > section.size() && path.starts_with(section) && path[section.size()] == '.';
}

/// The notes of one policy_key_values pass by path; a key noted twice (qos reads a raw key and then its
/// typed value) keeps its typed note.
std::map<std::string, KeyNote> by_path(const std::vector<KeyNote>& notes) {
  std::map<std::string, KeyNote> out;
  for (const KeyNote& n : notes) {
    auto [at, fresh] = out.try_emplace(n.path, n);
    if (!fresh && n.typed) at->second = n;
  }
  return out;
}

std::string text_of(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "";
  return YAML::Dump(node);
}

std::string place(const std::string& source, const YAML::Mark& mark) {
  return source + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

/// The notes of `notes` in order, each path once (its typed note when there are two).
std::vector<KeyNote> unique_in_order(const std::vector<KeyNote>& notes) {
  const std::map<std::string, KeyNote> chosen = by_path(notes);
  std::vector<KeyNote> out;
  std::set<std::string> seen;
  for (const KeyNote& n : notes) {
    if (seen.insert(n.path).second) out.push_back(chosen.at(n.path));
  }
  return out;
}

}  // namespace

std::vector<EffectiveKey> effective_keys(const EffectiveInputs& in) {
  const std::map<std::string, KeyNote> before = by_path(policy_key_values(in.loaded));
  const std::map<std::string, KeyNote> instanced = by_path(policy_key_values(in.with_instance));
  std::map<std::string, KeyNote> written;  // keys the file wrote
  for (const KeyNote& n : in.file_notes) {
    if (n.key_mark) written.try_emplace(n.path, n);
  }
  std::map<std::string, std::string> overridden;
  for (const auto& [key, option] : overridden_keys(in.effective.overrides)) overridden.emplace(key, option);

  const auto origin_of_written = [&](const std::string& path) {
    auto at = written.find(path);
    return at == written.end() ? std::string("default") : place(in.source, *at->second.key_mark);
  };
  const bool qos_written = written.contains("qos");
  std::vector<EffectiveKey> keys;
  for (const KeyNote& note : unique_in_order(policy_key_values(in.effective))) {
    const std::string& path = note.path;
    if (path == "partitions") {
      // partitions_yaml writes every key of the spec the loader built, default or not.
      keys.push_back(
          {path, YAML::Load(partitions_yaml(in.effective.partitions))["partitions"], origin_of_written(path)});
      continue;
    }
    if (path == "qos" && qos_written) {
      keys.push_back({path, written.at(path).value, origin_of_written(path)});
      continue;
    }
    if (under(path, "partitions") || (qos_written && under(path, "qos")) || !note.typed) continue;
    EffectiveKey key{path, note.value, "default", note.unset, note.string};
    if (auto o = overridden.find(path); o != overridden.end()) {
      key.origin = o->second;
    } else if (auto b = before.find(path), i = instanced.find(path);
               b != before.end() && i != instanced.end() && text_of(b->second.value) != text_of(i->second.value)) {
      key.origin = "instance " + in.effective.instance.name;
    } else if (auto w = written.find(path); w != written.end()) {
      // As written: the engines' sections are read into fresh options, so only the file knows their values.
      key.value = w->second.value;
      key.origin = place(in.source, *w->second.key_mark);
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

namespace {

// Whether a plain scalar `text` reads as a boolean, number or null to a YAML reader, so a string with that
// text must be quoted: yaml-cpp's own conversions, the null words, YAML 1.1's merge and value keys, and
// anything that starts like a number (YAML 1.1 also reads 1:30 as 90 and 1_000 as 1000).
bool reads_as_other_type(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL" || text == "<<" ||
      text == "=") {
    return true;
  }
  const std::size_t first = text[0] == '-' || text[0] == '+' || text[0] == '.' ? 1 : 0;
  if (first < text.size() && std::isdigit(static_cast<unsigned char>(text[first])) != 0) return true;
  const YAML::Node node(text);
  bool b = false;
  double d = 0;
  long long i = 0;
  return YAML::convert<bool>::decode(node, b) || YAML::convert<double>::decode(node, d) ||
         YAML::convert<long long>::decode(node, i);
}

}  // namespace

std::string effective_yaml(const std::vector<EffectiveKey>& keys) {
  YAML::Emitter out;
  out << YAML::Comment("smd effective policy: every key, its value, where it came from") << YAML::BeginMap;
  std::vector<std::string> open;  // the sections the emitter is inside, outermost first
  for (const EffectiveKey& key : keys) {
    std::vector<std::string> parts = split_key_path(key.key);
    const std::string leaf = parts.back();
    parts.pop_back();
    std::size_t same = 0;
    while (same < open.size() && same < parts.size() && open[same] == parts[same]) ++same;
    for (std::size_t i = open.size(); i > same; --i) out << YAML::EndMap;
    open.resize(same);
    for (std::size_t i = same; i < parts.size(); ++i) {
      out << YAML::Key << parts[i] << YAML::Value << YAML::BeginMap;
      open.push_back(parts[i]);
    }
    YAML::Node value = YAML::Clone(key.value);
    if (value.IsSequence() &&
        std::all_of(value.begin(), value.end(), [](const YAML::Node& n) { return n.IsScalar(); })) {
      value.SetStyle(YAML::EmitterStyle::Flow);
    }
    if (key.unset) {
      out << YAML::Newline << YAML::Comment(leaf + ": unset  # " + key.origin);
      continue;
    }
    out << YAML::Key << leaf << YAML::Value;
    if (key.string && value.IsScalar() && reads_as_other_type(value.Scalar())) {
      out << YAML::DoubleQuoted << value.Scalar() << YAML::Comment(key.origin);
    } else if (value.IsMap() || (value.IsSequence() && value.Style() != YAML::EmitterStyle::Flow)) {
      // A block value starts on the next line; the comment stays with its key.
      out << YAML::Comment(key.origin) << value;
    } else {
      out << value << YAML::Comment(key.origin);
    }
  }
  for (std::size_t i = open.size(); i > 0; --i) out << YAML::EndMap;
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

Result<std::vector<std::string>> keys_missing_from(const std::string& text) {
  YAML::Node dumped;
  try {
    dumped = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return make_error(ErrorCode::kInvalidInput, "the effective policy is not YAML: " + e.msg);
  }
  std::vector<std::string> missing;
  for (const KeyNote& note : unique_in_order(policy_key_values(Policy{}))) {
    if (!note.typed) continue;
    YAML::Node at = YAML::Clone(dumped);
    bool found = true;
    for (const std::string& part : split_key_path(note.path)) {
      if (!at.IsMap() || !at[part]) {
        found = false;
        break;
      }
      at = at[part];
    }
    if (!found && note.unset)
      found = text.find("# " + split_key_path(note.path).back() + ": unset") != std::string::npos;
    if (!found) missing.push_back(note.path);
  }
  return missing;
}

}  // namespace smd
