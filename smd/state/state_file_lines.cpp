#include "smd/state/state_file_lines.h"

namespace smd {

namespace {

bool is_field_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

std::vector<std::string_view> split_state_fields(std::string_view line, std::size_t max) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (out.size() <= max) {
    while (i < line.size() && is_field_space(line[i])) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !is_field_space(line[i])) ++i;
    out.push_back(line.substr(start, i - start));
  }
  return out;
}

}  // namespace smd
