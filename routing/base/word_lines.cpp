#include "routing/base/word_lines.h"

namespace smd {
namespace {
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
}  // namespace

bool WordLines::next(std::vector<LineWord>& words) {
  std::string_view line;
  while (lines_.next(line)) {
    words.clear();
    for (std::size_t i = 0; i < line.size() && line[i] != '#';) {
      if (is_blank(line[i])) {
        ++i;
        continue;
      }
      const std::size_t start = i;
      while (i < line.size() && !is_blank(line[i]) && line[i] != '#') ++i;
      words.push_back({line.substr(start, i - start), start + 1});
    }
    if (!words.empty()) return true;
  }
  return false;
}

Error WordLines::error(std::size_t column, const std::string& message) const {
  // An editor's mark is invisible in a terminal: named, not quoted as a strange GUID.
  if (bom_ && line_no() == 1 && column == 1) {
    return make_error(ErrorCode::kInvalidInput, source_ +
                                                    ":1:1: a UTF-8 byte-order mark starts the file: OpenSM reads "
                                                    "it as part of the first word; save the file without it");
  }
  return make_error(ErrorCode::kInvalidInput,
                    source_ + ":" + std::to_string(line_no()) + ":" + std::to_string(column) + ": " + message);
}

std::size_t column_after(const std::vector<LineWord>& words) {
  return words.back().column + words.back().text.size();
}

std::string quoted_word(std::string_view w) {
  return "'" + std::string(w.substr(0, 40)) + (w.size() > 40 ? "...'" : "'");
}

}  // namespace smd
