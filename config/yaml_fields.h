// Typed, located reads of YAML mappings for the policy loader. Every failure names the source file, the
// 1-based line:column of the offending node and the dotted key path, so an operator can go straight to it.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "routing/base/status.h"

namespace smd {

/// Parse an unsigned integer written in decimal ("42") or hex ("0x2a", "0X2A"): the forms GUIDs and keys take.
/// Rejects signs, trailing junk, empty text, values above 2^64-1, and decimal leading zeros ("010" is octal
/// in YAML 1.1 and decimal elsewhere; refusing it avoids a silent misreading).
/// Errors: kInvalidInput, message without location (the caller adds it).
Result<std::uint64_t> parse_unsigned(std::string_view text);

/// Levenshtein distance between two keys (insertions, deletions, substitutions each cost 1).
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The closest of `candidates` to `word` within edit distance 2, or nullopt. Ties go to the earlier candidate.
std::optional<std::string> closest_within_two(std::string_view word, std::span<const std::string> candidates);

/// "a scalar", "a sequence", "a map", "null": how a node's kind reads in an error message.
std::string describe_kind(const YAML::Node& node);

/// One key the loader asked for, noted when a Diagnostics records keys (config/effective_policy.h): the
/// dotted path, where the key is written (nullopt when absent), and its value: the typed field's value after
/// the read (absent: the default the field held), or the node as written for read_raw and section keys.
struct KeyNote {
  std::string path;
  std::optional<YAML::Mark> key_mark;
  YAML::Node value;
  /// Read by a typed read_* (a scalar or a list of scalars); false for section() and read_raw keys.
  bool typed = true;
  /// A string that must not be empty and holds "" (unset: the daemon derives it): no value to write.
  bool unset = false;
  /// Read by read_string: a name or path, which stays a string when written back even if it reads as a
  /// number or boolean ("123", "true").
  bool string = false;
};

/// Collects every error of one load and reports them in file order, whichever order the loader checked
/// the keys in: the operator fixes a file in one pass, not one error per try.
class Diagnostics {
 public:
  /// `source` names the file in every message, made printable (a file name may hold a newline).
  explicit Diagnostics(std::string source);

  /// Record "source:line:col: path: message" at the 0-based yaml-cpp `mark` (printed 1-based).
  /// An empty `path` drops the "path: " part (syntax errors, top-level shape).
  void fail(const YAML::Mark& mark, const std::string& path, const std::string& message);

  bool ok() const { return located_.empty(); }
  /// How many problems fail() was told of: a reader compares it before and after a read to learn
  /// whether that read found a problem.
  std::size_t failures() const { return failures_; }
  /// Every recorded error (kInvalidInput), one a line in file order (line, then column), the same text
  /// once; beyond kMaxReported a last line says how many more. Call only when !ok().
  Error error() const;
  /// Errors error() lists in full.
  static constexpr std::size_t kMaxReported = 20;

  const std::string& source() const { return source_; }

  /// Note every key the readers ask for into `notes` (nullptr: none, the default). Each note costs one
  /// push; a load without a recorder pays one pointer test per key.
  void record_keys(std::vector<KeyNote>* notes) { notes_ = notes; }
  bool recording() const { return notes_ != nullptr; }
  /// Marks the last note unset (KeyNote::unset).
  void mark_last_unset() {
    if (notes_ != nullptr && !notes_->empty()) notes_->back().unset = true;
  }
  void mark_last_string() {
    if (notes_ != nullptr && !notes_->empty()) notes_->back().string = true;
  }
  /// Appends `note` when recording.
  void note(KeyNote note) {
    if (notes_ != nullptr) notes_->push_back(std::move(note));
  }

 private:
  struct Located {
    int line;
    int column;
    std::string text;
  };
  std::string source_;
  std::vector<Located> located_;
  std::size_t failures_ = 0;
  std::vector<KeyNote>* notes_ = nullptr;
};

/// One YAML mapping of the policy ("sm", "routing.updn", ...), read key by key into typed fields.
/// A key that is absent leaves the field at its default; a key that is present but wrong records an
/// error at the value's location and leaves the field untouched. finish() reports every key no reader
/// asked for as unknown, with a did-you-mean suggestion. A null node (a section with all keys commented
/// out) reads as an empty mapping.
class MapReader {
 public:
  /// `node` is the mapping; `path` its dotted name ("" for the top level); `where` is used for errors
  /// about the node itself when it has no mark of its own.
  MapReader(const YAML::Node& node, std::string path, const YAML::Mark& where, Diagnostics& diag);

  /// Nested mapping under `key`: a MapReader over it (empty when absent or null).
  MapReader section(std::string_view key);

  /// Any scalar as text; `non_empty` rejects "".
  void read_string(std::string_view key, std::string& out, bool non_empty = false);
  /// An integer in lo..hi (decimal or 0x hex).
  void read_unsigned(std::string_view key, std::uint64_t lo, std::uint64_t hi, unsigned& out);
  /// A full 64-bit value (GUIDs, keys, prefixes), decimal or 0x hex.
  void read_u64(std::string_view key, std::uint64_t& out);
  /// true or false (also True/TRUE/False/FALSE); YAML 1.1 yes/no/on/off are refused as ambiguous.
  void read_bool(std::string_view key, bool& out);
  /// One of `choices`, spelled exactly.
  void read_choice(std::string_view key, std::span<const std::string> choices, std::string& out);
  /// A sequence of non-zero, distinct GUIDs; errors name the element ("routing.updn.roots[2]").
  void read_guid_list(std::string_view key, std::vector<std::uint64_t>& out);
  /// A non-empty sequence of distinct names, each one of `choices`; `noun` names them in errors ("engine").
  void read_name_list(std::string_view key, std::string_view noun, std::span<const std::string> choices,
                      std::vector<std::string>& out);

  /// The raw value of `key` for shapes the typed reads do not cover (a sequence of maps, a scalar-or-map),
  /// remembered as known; nullopt when absent. `mark` is where errors about the value point (the key when
  /// the value is null), `path` its dotted name.
  struct Raw {
    YAML::Node node;
    YAML::Mark mark;
    std::string path;
  };
  std::optional<Raw> read_raw(std::string_view key);

  /// The Diagnostics this reader reports to, for readers built on read_raw.
  Diagnostics& diagnostics() { return diag_; }

  /// Record "path.key: message" at `key`'s place (a check that involves more than one key), or at this
  /// mapping's own place when `key` is absent.
  void fail_key(std::string_view key, const std::string& message);

  /// Where `key` is written (for errors that involve two keys), or nullopt when it is absent.
  std::optional<YAML::Mark> key_mark(std::string_view key) const;
  /// Where the value of `key` is written (the key when the value is null), or nullopt when it is absent.
  std::optional<YAML::Mark> value_mark_of(std::string_view key) const;

  /// Report keys present in the mapping that no read_* or section() call asked for.
  void finish();

 private:
  struct Entry {
    std::string key;
    YAML::Node key_node;
    YAML::Node value;
  };
  // The reads themselves; the public read_* add the note.
  void read_string_value(std::string_view key, std::string& out, bool non_empty);
  /// The one integer read behind read_unsigned and read_u64: decimal or 0x hex, in lo..hi; nullopt (the
  /// failure recorded at the value) when absent, not a scalar, not a number or out of range.
  std::optional<std::uint64_t> read_integer_value(std::string_view key, std::uint64_t lo, std::uint64_t hi);
  void read_bool_value(std::string_view key, bool& out);
  void read_choice_value(std::string_view key, std::span<const std::string> choices, std::string& out);
  void read_guid_list_value(std::string_view key, std::vector<std::uint64_t>& out);
  void read_name_list_value(std::string_view key, std::string_view noun, std::span<const std::string> choices,
                            std::vector<std::string>& out);

  /// The entry for `key`, remembering it as known; nullptr when absent.
  const Entry* find(std::string_view key);
  /// Notes `key` (typed) with `value` when the Diagnostics records keys.
  template <typename Make>
  void note_typed(std::string_view key, Make make_value) {
    if (!diag_.recording()) return;
    diag_.note(KeyNote{child_path(key), key_mark(key), make_value(), true});
  }
  /// Dotted path of a child key ("mad" + "window" -> "mad.window").
  std::string child_path(std::string_view key) const;
  /// The value as a scalar, or nullopt after recording "expected <what>, got <kind>".
  std::optional<std::string> scalar(const Entry& entry, const char* what);
  /// Where an error about `entry`'s value points: the value itself, or the key when the value is null
  /// (yaml-cpp marks a missing value at the next token, which would mislead).
  static YAML::Mark value_mark(const Entry& entry);

  std::string path_;
  YAML::Mark where_;
  Diagnostics& diag_;
  std::vector<Entry> entries_;                          // in the order written
  std::unordered_map<std::string, std::size_t> index_;  // key -> its entry
  std::vector<std::string> known_;
};

/// An unsigned `key` in lo..hi read into a narrower field (std::uint8_t, std::uint16_t, ...): `out` keeps
/// its value when the key is absent; a bad value is recorded by read_unsigned at its place.
template <typename Narrow>
void read_narrow(MapReader& map, std::string_view key, std::uint64_t lo, std::uint64_t hi, Narrow& out) {
  unsigned value = out;
  map.read_unsigned(key, lo, hi, value);
  out = static_cast<Narrow>(value);
}

/// The mark of a sequence element: its own, or the sequence's when the element is null (no mark of its own).
YAML::Mark item_mark(const YAML::Node& item, const YAML::Mark& sequence);

/// Calls `each(item, mark, path)` for every element of the sequence under `key` of `map`, with the element's
/// place ("key[i]", item_mark). Nothing when the key is absent; one error ("expected a sequence of <noun>,
/// got a map") when its value is not a sequence, or when it has more than `max_items` elements (bounds what
/// YAML aliases can multiply: a list aliased a thousand times is read a thousand times). Elements of the
/// wrong kind are `each`'s to refuse.
template <typename Each>
void for_each_item(MapReader& map, std::string_view key, std::string_view noun, Each each,
                   std::size_t max_items = static_cast<std::size_t>(-1)) {
  std::optional<MapReader::Raw> raw = map.read_raw(key);
  if (!raw) return;
  if (!raw->node.IsSequence()) {
    map.diagnostics().fail(raw->mark, raw->path,
                           "expected a sequence of " + std::string(noun) + ", got " + describe_kind(raw->node));
    return;
  }
  if (raw->node.size() > max_items) {
    map.diagnostics().fail(raw->mark, raw->path,
                           std::to_string(raw->node.size()) + " " + std::string(noun) + "; at most " +
                               std::to_string(max_items) + " are accepted");
    return;
  }
  for (std::size_t i = 0; i < raw->node.size(); ++i) {
    const YAML::Node item = raw->node[i];
    each(item, item_mark(item, raw->mark), raw->path + "[" + std::to_string(i) + "]");
  }
}

}  // namespace smd
