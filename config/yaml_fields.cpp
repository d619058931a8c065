#include "config/yaml_fields.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <limits>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "routing/base/hex_text.h"
#include "routing/base/safe_text.h"

namespace smd {

namespace {

Error invalid(std::string message) { return make_error(ErrorCode::kInvalidInput, std::move(message)); }

/// A 64-bit value as the policy writes GUIDs and keys: 0x and 16 hex digits.
std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string join(std::span<const std::string> items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

/// " (did you mean 'x'?)" when a candidate is close, else "".
std::string suggestion(std::string_view word, std::span<const std::string> candidates) {
  std::optional<std::string> near = closest_within_two(word, candidates);
  return near ? " (did you mean " + quoted(*near) + "?)" : "";
}

// Each element of the sequence `list` (named `path`) as text: `take(text, index, mark, element_path)`
// reports and returns false for an element it refuses; a non-scalar element is refused here ("expected
// WHAT, got a map"). Every element is looked at, so one pass reports all of them; true when all were taken.
template <typename Take>
bool take_scalar_elements(const YAML::Node& list, const std::string& path, const std::string& what, Diagnostics& diag,
                          Take take) {
  bool ok = true;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node& item = list[i];
    const std::string item_path = path + "[" + std::to_string(i) + "]";
    const YAML::Mark mark = item.IsNull() ? list.Mark() : item.Mark();
    if (!item.IsScalar()) {
      diag.fail(mark, item_path, "expected " + what + ", got " + describe_kind(item));
      ok = false;
      continue;
    }
    if (!take(item.Scalar(), i, mark, item_path)) ok = false;
  }
  return ok;
}

}  // namespace

Result<std::uint64_t> parse_unsigned(std::string_view text) {
  if (text.empty()) return invalid("expected an integer, got an empty string");
  if (text.front() == '-') return invalid(std::string(text) + " is negative; expected an unsigned integer");
  int base = 10;
  std::string_view digits = text;
  if (text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
    if (digits.empty()) return invalid(quoted(text) + " is not an integer: no hex digits after 0x");
  } else if (text.size() >= 2 && text[0] == '0' && text[1] >= '0' && text[1] <= '9') {
    return invalid(quoted(text) +
                   " has a leading zero, which YAML 1.1 reads as octal; write it without the zero or as 0x hex");
  }
  std::uint64_t value = 0;
  const char* end = digits.data() + digits.size();
  auto [stop, ec] = std::from_chars(digits.data(), end, value, base);
  if (stop == digits.data()) return invalid(quoted(text) + " is not an integer");
  if (ec == std::errc::result_out_of_range) return invalid(std::string(text) + " does not fit in 64 bits");
  if (stop != end) {
    return invalid(quoted(text) + " is not an integer: unexpected " + quoted(std::string_view(stop, end - stop)) +
                   " after the number");
  }
  return value;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // One row of the classic dynamic programme: row[j] = distance(a[0..i), b[0..j)).
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::optional<std::string> closest_within_two(std::string_view word, std::span<const std::string> candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const std::string& candidate : candidates) {
    std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

YAML::Mark item_mark(const YAML::Node& item, const YAML::Mark& sequence) {
  return item.IsNull() || item.Mark().is_null() ? sequence : item.Mark();
}

std::string describe_kind(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Sequence: return "a sequence";
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Null: return "no value";
    case YAML::NodeType::Undefined: return "nothing";
  }
  return "an unknown node";
}

Diagnostics::Diagnostics(std::string source) : source_(printable_text(source)) {}

void Diagnostics::fail(const YAML::Mark& mark, const std::string& path, const std::string& message) {
  // yaml-cpp marks are 0-based; editors and compilers count from 1.
  ++failures_;
  const int line = mark.line + 1;
  const int column = mark.column + 1;
  std::string text = source_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  if (!path.empty()) text += path + ": ";
  // A message quotes the value it refuses: a value of a megabyte must not make a megabyte of log.
  constexpr std::size_t kMaxMessage = 400;
  if (message.size() > kMaxMessage) {
    text += message.substr(0, kMaxMessage) + "... (" + std::to_string(message.size() - kMaxMessage) + " bytes more)";
  } else {
    text += message;
  }
  located_.push_back(Located{line, column, std::move(text)});
}

Error Diagnostics::error() const {
  if (located_.empty()) return make_error(ErrorCode::kInternal, source_ + ": error() called with no error recorded");
  std::vector<const Located*> order;
  for (const Located& l : located_) order.push_back(&l);
  std::stable_sort(order.begin(), order.end(), [](const Located* a, const Located* b) {
    return std::tie(a->line, a->column) < std::tie(b->line, b->column);
  });
  std::string text;
  std::size_t listed = 0, more = 0;
  const std::string* previous = nullptr;
  for (const Located* l : order) {
    if (previous != nullptr && *previous == l->text) continue;  // one place found twice (a key read twice)
    previous = &l->text;
    if (listed == kMaxReported) {
      ++more;
      continue;
    }
    text += (listed++ == 0 ? "" : "\n") + l->text;
  }
  if (more != 0) text += "\n" + source_ + ": and " + std::to_string(more) + " more errors";
  return invalid(text);
}

MapReader::MapReader(const YAML::Node& node, std::string path, const YAML::Mark& where, Diagnostics& diag)
    : path_(std::move(path)), where_(node.IsDefined() && !node.Mark().is_null() ? node.Mark() : where), diag_(diag) {
  if (!node.IsDefined() || node.IsNull()) return;
  if (!node.IsMap()) {
    diag_.fail(node.Mark().is_null() ? where : node.Mark(), path_, "expected a map, got " + describe_kind(node));
    return;
  }
  for (const auto& pair : node) {
    // Copies, not references: yaml-cpp's iterator hands out a temporary pair.
    YAML::Node key = pair.first;
    if (!key.IsScalar()) {
      diag_.fail(key.Mark(), path_, "expected a key name, got " + describe_kind(key));
      continue;
    }
    // yaml-cpp keeps both entries of a repeated key and lookups silently return the first; refuse it.
    // Indexed, not searched: a policy of many keys must load in linear time (the daemon reloads on its loop).
    auto [same, fresh] = index_.try_emplace(key.Scalar(), entries_.size());
    if (!fresh) {
      diag_.fail(
          key.Mark(), child_path(key.Scalar()),
          "duplicate key (first at line " + std::to_string(entries_[same->second].key_node.Mark().line + 1) + ")");
      continue;
    }
    entries_.push_back(Entry{key.Scalar(), key, pair.second});
  }
}

std::string MapReader::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const MapReader::Entry* MapReader::find(std::string_view key) {
  known_.emplace_back(key);
  auto it = index_.find(std::string(key));
  return it == index_.end() ? nullptr : &entries_[it->second];
}

YAML::Mark MapReader::value_mark(const Entry& entry) {
  return entry.value.IsNull() || entry.value.Mark().is_null() ? entry.key_node.Mark() : entry.value.Mark();
}

std::optional<std::string> MapReader::scalar(const Entry& entry, const char* what) {
  if (entry.value.IsScalar()) return entry.value.Scalar();
  diag_.fail(value_mark(entry), child_path(entry.key),
             std::string("expected ") + what + ", got " + describe_kind(entry.value));
  return std::nullopt;
}

MapReader MapReader::section(std::string_view key) {
  const Entry* entry = find(key);
  if (diag_.recording()) {
    diag_.note(KeyNote{child_path(key), key_mark(key), entry ? entry->value : YAML::Node(), false});
  }
  if (entry == nullptr) return MapReader(YAML::Node(), child_path(key), YAML::Mark(), diag_);
  return MapReader(entry->value, child_path(key), value_mark(*entry), diag_);
}

void MapReader::read_string_value(std::string_view key, std::string& out, bool non_empty) {
  const Entry* entry = find(key);
  if (entry == nullptr) return;
  std::optional<std::string> text = scalar(*entry, "a string");
  if (!text) return;
  if (non_empty && text->empty()) {
    diag_.fail(value_mark(*entry), child_path(key), "must not be empty");
    return;
  }
  // Names and paths never hold control characters; one here would reach logs and terminals raw, or make
  // a path with a newline in it.
  if (const auto bad = std::find_if(text->begin(), text->end(),
                                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
      bad != text->end()) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(*bad)));
    diag_.fail(value_mark(*entry), child_path(key),
               std::string("holds a control character (") + hex + " at byte " + std::to_string(bad - text->begin()) +
                   "): a name or path never does");
    return;
  }
  out = *text;
}

std::optional<std::uint64_t> MapReader::read_integer_value(std::string_view key, std::uint64_t lo, std::uint64_t hi) {
  const Entry* entry = find(key);
  if (entry == nullptr) return std::nullopt;
  std::optional<std::string> text = scalar(*entry, "an integer");
  if (!text) return std::nullopt;
  Result<std::uint64_t> value = parse_unsigned(*text);
  if (!value.ok()) {
    diag_.fail(value_mark(*entry), child_path(key), value.error().message);
    return std::nullopt;
  }
  if (*value < lo || *value > hi) {
    diag_.fail(value_mark(*entry), child_path(key),
               *text + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
    return std::nullopt;
  }
  return *value;
}

void MapReader::read_bool_value(std::string_view key, bool& out) {
  const Entry* entry = find(key);
  if (entry == nullptr) return;
  std::optional<std::string> text = scalar(*entry, "true or false");
  if (!text) return;
  if (*text == "true" || *text == "True" || *text == "TRUE") {
    out = true;
  } else if (*text == "false" || *text == "False" || *text == "FALSE") {
    out = false;
  } else {
    diag_.fail(value_mark(*entry), child_path(key), "expected true or false, got " + quoted(*text));
  }
}

void MapReader::read_choice_value(std::string_view key, std::span<const std::string> choices, std::string& out) {
  const Entry* entry = find(key);
  if (entry == nullptr) return;
  std::optional<std::string> text = scalar(*entry, "a string");
  if (!text) return;
  if (std::find(choices.begin(), choices.end(), *text) == choices.end()) {
    diag_.fail(
        value_mark(*entry), child_path(key),
        "unknown value " + quoted(*text) + suggestion(*text, choices) + "; expected one of " + join(choices, ", "));
    return;
  }
  out = *text;
}

void MapReader::read_guid_list_value(std::string_view key, std::vector<std::uint64_t>& out) {
  const Entry* entry = find(key);
  if (entry == nullptr) return;
  if (!entry->value.IsSequence()) {
    diag_.fail(value_mark(*entry), child_path(key), "expected a sequence of GUIDs, got " + describe_kind(entry->value));
    return;
  }
  std::vector<std::uint64_t> guids;
  std::unordered_map<std::uint64_t, std::size_t> first_at;  // GUID -> index of its first listing
  const bool ok = take_scalar_elements(
      entry->value, child_path(key), "a GUID", diag_,
      [&](const std::string& text, std::size_t i, const YAML::Mark& mark, const std::string& path) {
        Result<std::uint64_t> guid = parse_unsigned(text);
        if (!guid.ok()) {
          diag_.fail(mark, path, guid.error().message);
          return false;
        }
        if (*guid == 0) {
          diag_.fail(mark, path, "GUID 0 is not a valid port or node GUID");
          return false;
        }
        guids.push_back(*guid);
        auto [same, fresh] = first_at.try_emplace(*guid, i);
        if (fresh) return true;
        diag_.fail(mark, path, text + " is listed twice (first at [" + std::to_string(same->second) + "])");
        return false;
      });
  if (ok) out = std::move(guids);
}

void MapReader::read_name_list_value(std::string_view key, std::string_view noun, std::span<const std::string> choices,
                                     std::vector<std::string>& out) {
  const Entry* entry = find(key);
  if (entry == nullptr) return;
  if (!entry->value.IsSequence()) {
    diag_.fail(value_mark(*entry), child_path(key),
               "expected a sequence of " + std::string(noun) + " names, got " + describe_kind(entry->value));
    return;
  }
  if (entry->value.size() == 0) {
    diag_.fail(value_mark(*entry), child_path(key),
               "must name at least one " + std::string(noun) + " (known: " + join(choices, ", ") + ")");
    return;
  }
  std::vector<std::string> names;
  const bool ok = take_scalar_elements(
      entry->value, child_path(key), "a name", diag_,
      [&](const std::string& name, std::size_t, const YAML::Mark& mark, const std::string& path) {
        if (std::find(choices.begin(), choices.end(), name) == choices.end()) {
          diag_.fail(mark, path,
                     "unknown " + std::string(noun) + " " + quoted(name) + suggestion(name, choices) +
                         "; known: " + join(choices, ", "));
          return false;
        }
        const auto first = static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
        names.push_back(name);
        if (first == names.size() - 1) return true;
        diag_.fail(mark, path, quoted(name) + " is listed twice (first at [" + std::to_string(first) + "])");
        return false;
      });
  if (ok) out = std::move(names);
}

void MapReader::read_string(std::string_view key, std::string& out, bool non_empty) {
  read_string_value(key, out, non_empty);
  note_typed(key, [&] { return YAML::Node(out); });
  if (diag_.recording()) diag_.mark_last_string();
  if (diag_.recording() && non_empty && out.empty()) diag_.mark_last_unset();
}

void MapReader::read_unsigned(std::string_view key, std::uint64_t lo, std::uint64_t hi, unsigned& out) {
  if (std::optional<std::uint64_t> value = read_integer_value(key, lo, hi)) out = static_cast<unsigned>(*value);
  note_typed(key, [&] { return YAML::Node(std::to_string(out)); });
}

void MapReader::read_u64(std::string_view key, std::uint64_t& out) {
  if (std::optional<std::uint64_t> value = read_integer_value(key, 0, std::numeric_limits<std::uint64_t>::max()))
    out = *value;
  note_typed(key, [&] { return YAML::Node(hex64_text(out)); });
}

void MapReader::read_bool(std::string_view key, bool& out) {
  read_bool_value(key, out);
  note_typed(key, [&] { return YAML::Node(out ? "true" : "false"); });
}

void MapReader::read_choice(std::string_view key, std::span<const std::string> choices, std::string& out) {
  read_choice_value(key, choices, out);
  note_typed(key, [&] { return YAML::Node(out); });
}

void MapReader::read_guid_list(std::string_view key, std::vector<std::uint64_t>& out) {
  read_guid_list_value(key, out);
  note_typed(key, [&] {
    YAML::Node list(YAML::NodeType::Sequence);
    for (std::uint64_t guid : out) list.push_back(hex64_text(guid));
    return list;
  });
}

void MapReader::read_name_list(std::string_view key, std::string_view noun, std::span<const std::string> choices,
                               std::vector<std::string>& out) {
  read_name_list_value(key, noun, choices, out);
  note_typed(key, [&] {
    YAML::Node list(YAML::NodeType::Sequence);
    for (const std::string& name : out) list.push_back(name);
    return list;
  });
}

std::optional<MapReader::Raw> MapReader::read_raw(std::string_view key) {
  const Entry* entry = find(key);
  if (diag_.recording()) {
    diag_.note(KeyNote{child_path(key), key_mark(key), entry ? entry->value : YAML::Node(), false});
  }
  if (entry == nullptr) return std::nullopt;
  return Raw{entry->value, value_mark(*entry), child_path(key)};
}

void MapReader::fail_key(std::string_view key, const std::string& message) {
  diag_.fail(key_mark(key).value_or(where_), child_path(key), message);
}

std::optional<YAML::Mark> MapReader::key_mark(std::string_view key) const {
  auto it = index_.find(std::string(key));
  if (it == index_.end()) return std::nullopt;
  return entries_[it->second].key_node.Mark();
}

std::optional<YAML::Mark> MapReader::value_mark_of(std::string_view key) const {
  auto it = index_.find(std::string(key));
  if (it == index_.end()) return std::nullopt;
  return value_mark(entries_[it->second]);
}

void MapReader::finish() {
  for (const Entry& entry : entries_) {
    if (std::find(known_.begin(), known_.end(), entry.key) != known_.end()) continue;
    std::string hint = suggestion(entry.key, known_);
    if (hint.empty()) hint = "; expected one of " + join(known_, ", ");
    diag_.fail(entry.key_node.Mark(), child_path(entry.key), "unknown key" + hint);
  }
}

}  // namespace smd
