// The reader OpenSM's word-per-field input files share (guid_routing_order_file, root_guid_file,
// ids_guid_file, hop_weights_file, port_search_ordering_file, port_prof_ignore_file): one record a line,
// words separated by blanks (space, tab, CR), '#' starts a comment, lines without a word skipped. Every
// word keeps its column, so each parser's errors name "FILE:LINE:COLUMN" where an operator finds the word.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"

namespace smd {

/// A text's lines ('\n' ends one; a last line without it counts too), numbered from 1.
class TextLines {
 public:
  /// `text` must outlive the reader (lines are views into it).
  explicit TextLines(std::string_view text) : text_(text) {}
  /// The next line, without its '\n'; false at the end of the text.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++line_no_;
    return true;
  }
  /// The line next() returned last.
  std::size_t line_no() const { return line_no_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t line_no_ = 0;
};

/// One word of a line and its 1-based column.
struct LineWord {
  std::string_view text;
  std::size_t column = 0;
};

class WordLines {
 public:
  /// `source` names the file in errors; `text` must outlive the reader (words are views into it).
  WordLines(std::string_view text, std::string source)
      : lines_(text), source_(std::move(source)), bom_(text.starts_with("\xEF\xBB\xBF")) {}

  /// The words of the next line that has any; false at the end of the text.
  bool next(std::vector<LineWord>& words);
  /// The current line, counted from 1.
  std::size_t line_no() const { return lines_.line_no(); }
  /// kInvalidInput "SOURCE:LINE:COLUMN: message" on the current line. A text that starts with a UTF-8
  /// byte-order mark has it in its first word, which then reads as no GUID, port or name: an error there
  /// (line 1, column 1) says the mark instead, as opensm.conf's reader (config/opensm_conf.h) does.
  Error error(std::size_t column, const std::string& message) const;

 private:
  TextLines lines_;
  std::string source_;
  bool bom_ = false;  ///< the text starts with EF BB BF
};

/// The column just past the last word of `words` (non-empty): where a missing word would start.
std::size_t column_after(const std::vector<LineWord>& words);

/// `w` in quotes for a message, cut at 40 characters.
std::string quoted_word(std::string_view w);

}  // namespace smd
