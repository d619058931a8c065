#include "config/guid_list_file.h"

#include <unordered_map>

#include "config/text_file.h"
#include "config/yaml_fields.h"

namespace smd {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/// Walks one file line by line and word by word, keeping the place of each word for messages.
class LineScanner {
 public:
  LineScanner(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  /// Moves to the next line that holds a value; false at the end of the text.
  bool next_line() {
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      line_ = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++line_no_;
      col_ = 0;
      skip_blanks();
      if (col_ < line_.size()) return true;
    }
    return false;
  }

  /// The next word of the line (up to a blank or '#'), or "" at the end of the values; `column` gets its
  /// 1-based column.
  std::string_view word(std::size_t& column) {
    while (col_ < line_.size() && is_blank(line_[col_])) ++col_;
    column = col_ + 1;  // at a comment, the place of its '#'
    if (col_ < line_.size() && line_[col_] == '#') col_ = line_.size();
    const std::size_t start = col_;
    while (col_ < line_.size() && !is_blank(line_[col_]) && line_[col_] != '#') ++col_;
    return line_.substr(start, col_ - start);
  }

  /// "SOURCE:L:C: message".
  Error error_at(std::size_t column, const std::string& message) const {
    return make_error(ErrorCode::kInvalidInput,
                      source_ + ":" + std::to_string(line_no_) + ":" + std::to_string(column) + ": " + message);
  }

  std::size_t line_no() const { return line_no_; }

 private:
  // Blanks, then a comment to the end of the line.
  void skip_blanks() {
    while (col_ < line_.size() && is_blank(line_[col_])) ++col_;
    if (col_ < line_.size() && line_[col_] == '#') col_ = line_.size();
  }

  std::string_view text_;
  const std::string& source_;
  std::string_view line_;
  std::size_t pos_ = 0;
  std::size_t line_no_ = 0;
  std::size_t col_ = 0;
};

std::string quoted_word(std::string_view w) {
  return "'" + std::string(w.substr(0, 40)) + (w.size() > 40 ? "...'" : "'");
}

/// The GUID at the start of the scanner's line; duplicates checked against `first_line`.
Result<Guid> take_guid(LineScanner& in, std::unordered_map<Guid, std::size_t>& first_line) {
  std::size_t column = 0;
  const std::string_view w = in.word(column);
  auto guid = parse_unsigned(w);
  if (!guid.ok()) return in.error_at(column, quoted_word(w) + " is not a GUID: " + guid.error().message);
  if (*guid == 0) return in.error_at(column, "GUID 0 is not a valid port or node GUID");
  auto [seen, fresh] = first_line.try_emplace(*guid, in.line_no());
  if (!fresh) {
    return in.error_at(column,
                       std::string(w) + " is listed twice (first at line " + std::to_string(seen->second) + ")");
  }
  return *guid;
}

/// Nothing but blanks and a comment may follow the values of a line.
Status expect_end(LineScanner& in, const char* after) {
  std::size_t column = 0;
  const std::string_view w = in.word(column);
  if (w.empty()) return Ok{};
  return in.error_at(column, "unexpected " + quoted_word(w) + " after the " + after + " (one a line)");
}

/// Every line of a GUID file: its GUID (first seen), then what `rest(in, guid)` reads after it into a T.
/// The first bad line is the error; nothing is returned half-read.
template <typename T, typename Rest>
Result<std::vector<T>> parse_guid_lines(std::string_view text, const std::string& source, Rest rest) {
  LineScanner in(text, source);
  std::unordered_map<Guid, std::size_t> first_line;
  std::vector<T> out;
  while (in.next_line()) {
    auto guid = take_guid(in, first_line);
    if (!guid.ok()) return guid.error();
    Result<T> entry = rest(in, *guid);
    if (!entry.ok()) return entry.error();
    out.push_back(std::move(entry).value());
  }
  return out;
}

}  // namespace

Result<std::vector<Guid>> parse_guid_list_file(std::string_view text, const std::string& source) {
  return parse_guid_lines<Guid>(text, source, [](LineScanner& in, Guid guid) -> Result<Guid> {
    if (auto end = expect_end(in, "GUID"); !end.ok()) return end.error();
    return guid;
  });
}

Result<std::vector<GuidId>> parse_guid_id_file(std::string_view text, const std::string& source) {
  return parse_guid_lines<GuidId>(text, source, [](LineScanner& in, Guid guid) -> Result<GuidId> {
    std::size_t column = 0;
    const std::string_view w = in.word(column);
    if (w.empty()) return in.error_at(column, "expected an id after the GUID (format: <guid> <id>)");
    auto id = parse_unsigned(w);
    if (!id.ok()) return in.error_at(column, quoted_word(w) + " is not an id: " + id.error().message);
    if (auto end = expect_end(in, "id"); !end.ok()) return end.error();
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
