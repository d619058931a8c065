// The line reader the SM's line-oriented state files share (guid2lid, guid2mkey, mkey-neighbors): each
// line split into whitespace-separated fields, blank and '#' lines skipped, and every problem placed as
// "NAME:LINE: " so an operator can open the file at it. A last line without its newline is named as
// truncated: a write cut short by a crash looks exactly like that.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace smd {

/// Whitespace-separated fields (space, tab, CR) of one line, at most `max` + 1 of them, so a caller
/// expecting `max` sees "too many" without the rest being split.
std::vector<std::string_view> split_state_fields(std::string_view line, std::size_t max);

/// Calls `take(fields, where, line_number)` for each line of `text` that has a field and does not start
/// with '#'; `fields` holds at most `max_fields` + 1 (split_state_fields), `where` is "NAME:LINE: " plus
/// "truncated last line (no newline): " for a last line without its newline; lines count from 1. A UTF-8
/// byte order mark at the start of `text` (an editor that adds one when an operator fixes a file by hand)
/// is skipped, as the word files (routing/base/word_lines.h) skip it, not read as part of the first field.
template <typename Take>
void for_each_state_line(std::string_view text, const std::string& name, std::size_t max_fields, Take take) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  unsigned line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const bool cut = nl == std::string_view::npos;
    const std::string_view line = text.substr(pos, cut ? std::string_view::npos : nl - pos);
    pos = cut ? text.size() : nl + 1;
    ++line_no;
    const std::vector<std::string_view> fields = split_state_fields(line, max_fields);
    if (fields.empty() || fields[0][0] == '#') continue;
    take(fields, name + ":" + std::to_string(line_no) + ": " + (cut ? "truncated last line (no newline): " : ""),
         line_no);
  }
}

}  // namespace smd
