#include "config/guid_list_file.h"

#include <unordered_map>

#include "config/text_file.h"
#include "config/yaml_fields.h"
#include "routing/base/word_lines.h"

namespace smd {
namespace {

/// The GUID that starts a line; duplicates checked against `first_line`.
Result<Guid> take_guid(const WordLines& in, const LineWord& w, std::unordered_map<Guid, std::size_t>& first_line) {
  auto guid = parse_unsigned(w.text);
  if (!guid.ok()) return in.error(w.column, quoted_word(w.text) + " is not a GUID: " + guid.error().message);
  if (*guid == 0) return in.error(w.column, "GUID 0 is not a valid port or node GUID");
  auto [seen, fresh] = first_line.try_emplace(*guid, in.line_no());
  if (!fresh) {
    return in.error(w.column,
                    std::string(w.text) + " is listed twice (first at line " + std::to_string(seen->second) + ")");
  }
  return *guid;
}

/// Nothing but blanks and a comment may follow the first `count` words of a line.
Status expect_end(const WordLines& in, const std::vector<LineWord>& words, std::size_t count, const char* after) {
  if (words.size() <= count) return Ok{};
  return in.error(words[count].column, "unexpected " + quoted_word(words[count].text) + " after the " + after +
                                           " (one a line)");
}

/// Every line of a GUID file: its GUID (first seen), then what `rest(in, words, guid)` reads after it into
/// a T. The first bad line is the error; nothing is returned half-read.
template <typename T, typename Rest>
Result<std::vector<T>> parse_guid_lines(std::string_view text, const std::string& source, Rest rest) {
  WordLines in(text, source);
  std::unordered_map<Guid, std::size_t> first_line;
  std::vector<LineWord> words;
  std::vector<T> out;
  while (in.next(words)) {
    auto guid = take_guid(in, words[0], first_line);
    if (!guid.ok()) return guid.error();
    Result<T> entry = rest(in, words, *guid);
    if (!entry.ok()) return entry.error();
    out.push_back(std::move(entry).value());
  }
  return out;
}

}  // namespace

Result<std::vector<Guid>> parse_guid_list_file(std::string_view text, const std::string& source) {
  return parse_guid_lines<Guid>(text, source,
                                [](const WordLines& in, const std::vector<LineWord>& words, Guid guid) -> Result<Guid> {
                                  if (auto end = expect_end(in, words, 1, "GUID"); !end.ok()) return end.error();
                                  return guid;
                                });
}

Result<std::vector<GuidId>> parse_guid_id_file(std::string_view text, const std::string& source) {
  return parse_guid_lines<GuidId>(
      text, source, [](const WordLines& in, const std::vector<LineWord>& words, Guid guid) -> Result<GuidId> {
        if (words.size() < 2) {
          return in.error(column_after(words), "expected an id after the GUID (format: <guid> <id>)");
        }
        auto id = parse_unsigned(words[1].text);
        if (!id.ok()) return in.error(words[1].column, quoted_word(words[1].text) + " is not an id: " + id.error().message);
        if (auto end = expect_end(in, words, 2, "id"); !end.ok()) return end.error();
        return GuidId{guid, *id};
      });
}

Result<std::vector<Guid>> read_guid_list_file(const std::string& path) {
  auto text = read_regular_file(path, kMaxGuidFileBytes, "GUID file");
  if (!text.ok()) return text.error();
  return parse_guid_list_file(*text, path);
}

Result<std::vector<GuidId>> read_guid_id_file(const std::string& path) {
  auto text = read_regular_file(path, kMaxGuidFileBytes, "ids file");
  if (!text.ok()) return text.error();
  return parse_guid_id_file(*text, path);
}

}  // namespace smd
