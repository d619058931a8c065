#include "config/node_name_map.h"

#include <charconv>
#include <cstdio>
#include <optional>

#include "config/text_file.h"
#include "routing/base/safe_text.h"

namespace smd {

namespace {

constexpr std::size_t kMaxErrorsListed = 20;

bool space_or_tab(char c) { return c == ' ' || c == '\t'; }

std::string hex_guid(Guid guid) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
  return buf;
}

// A GUID token: 0x and 1..16 hex digits, or decimal digits that fit 64 bits.
std::optional<Guid> parse_guid(std::string_view token) {
  std::uint64_t value = 0;
  int base = 10;
  if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    token.remove_prefix(2);
    if (token.size() > 16) return std::nullopt;
    base = 16;
  }
  if (token.empty() || token.front() == '+' || token.front() == '-') return std::nullopt;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value, base);
  if (ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
  return value;
}

// One line's parse: a GUID and its name, nothing (a blank or comment line), or a problem at a column.
struct LineResult {
  std::optional<Guid> guid;
  std::string name;
  std::size_t name_column = 0;  ///< 0-based byte where the name (or its opening quote) starts
  std::string problem;
  std::size_t problem_column = 0;
};

LineResult fail_at(std::size_t column, std::string message) {
  LineResult r;
  r.problem = std::move(message);
  r.problem_column = column;
  return r;
}

LineResult parse_line(std::string_view line) {
  std::size_t at = 0;
  while (at < line.size() && space_or_tab(line[at])) ++at;
  if (at == line.size() || line[at] == '#') return {};

  const std::size_t guid_start = at;
  while (at < line.size() && !space_or_tab(line[at]) && line[at] != '#') ++at;
  const std::string_view token = line.substr(guid_start, at - guid_start);
  const std::optional<Guid> guid = parse_guid(token);
  if (!guid) {
    return fail_at(guid_start, "'" + printable_text(token) + "' is not a node GUID (0x and up to 16 hex digits)");
  }
  if (*guid == 0) return fail_at(guid_start, "GUID 0 names no node");

  while (at < line.size() && space_or_tab(line[at])) ++at;
  if (at == line.size() || line[at] == '#') return fail_at(at, "GUID " + hex_guid(*guid) + " has no name");

  LineResult r;
  r.guid = guid;
  r.name_column = at;
  if (line[at] == '"') {
    const std::size_t close = line.find('"', at + 1);
    if (close == std::string_view::npos) return fail_at(at, "a quote opened and never closed");
    r.name = std::string(line.substr(at + 1, close - at - 1));
    if (r.name.empty()) return fail_at(at, "an empty name \"\" (delete the line to use the NodeDescription)");
    std::size_t after = close + 1;
    while (after < line.size() && space_or_tab(line[after])) ++after;
    if (after < line.size() && line[after] != '#') {
      return fail_at(after, "text after the closing quote (a comment starts with '#')");
    }
  } else {
    std::size_t end = at;
    while (end < line.size() && line[end] != '#' && line[end] != '"') ++end;
    if (end < line.size() && line[end] == '"') {
      return fail_at(end, "a quote inside an unquoted name: quote the whole name");
    }
    std::size_t last = end;
    while (last > at && space_or_tab(line[last - 1])) --last;
    r.name = std::string(line.substr(at, last - at));
  }
  // The name is written to logs, JSON and Prometheus labels: a control character there is a mistake.
  for (std::size_t i = 0; i < r.name.size(); ++i) {
    const auto c = static_cast<unsigned char>(r.name[i]);
    if (c < 0x20 || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      const std::size_t offset = line[at] == '"' ? 1 : 0;
      return fail_at(at + offset + i, std::string("a control character (") + hex + ") in the name");
    }
  }
  return r;
}

std::string where(const std::string& source, std::size_t line, std::size_t column) {
  return printable_text(source) + ":" + std::to_string(line) + ":" + std::to_string(column + 1) + ": ";
}

}  // namespace

const std::string* NodeNameMap::find(Guid node_guid) const {
  const auto it = names_.find(node_guid);
  return it == names_.end() ? nullptr : &it->second;
}

Result<NodeNameMap> parse_node_name_map(std::string_view text, const std::string& source,
                                        std::vector<std::string>* warnings) {
  NodeNameMap map;
  map.source_ = source;
  std::unordered_map<Guid, std::size_t> first_line;  // GUID -> the line that named it
  std::vector<std::string> errors;
  std::size_t error_count = 0;
  std::size_t line_no = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    ++line_no;
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    begin = end + 1;

    if (const std::size_t nul = line.find('\0'); nul != std::string_view::npos) {
      if (++error_count <= kMaxErrorsListed)
        errors.push_back(where(source, line_no, nul) + "a NUL byte: a map is text");
      continue;
    }
    LineResult r = parse_line(line);
    if (!r.problem.empty()) {
      if (++error_count <= kMaxErrorsListed) errors.push_back(where(source, line_no, r.problem_column) + r.problem);
      continue;
    }
    if (!r.guid) continue;
    const auto [it, inserted] = map.names_.emplace(*r.guid, r.name);
    if (inserted) {
      first_line.emplace(*r.guid, line_no);
    } else if (it->second != r.name && warnings) {
      warnings->push_back(where(source, line_no, r.name_column) + "warning: GUID " + hex_guid(*r.guid) +
                          " is named on line " + std::to_string(first_line[*r.guid]) + " already ('" +
                          printable_text(it->second) + "'): the first name counts, this line is ignored");
    }
  }
  if (error_count > 0) {
    std::string message;
    for (const std::string& e : errors) message += (message.empty() ? "" : "\n") + e;
    if (error_count > kMaxErrorsListed) {
      message +=
          "\n" + printable_text(source) + ": and " + std::to_string(error_count - kMaxErrorsListed) + " more errors";
    }
    return make_error(ErrorCode::kInvalidInput, message);
  }
  return map;
}

Result<NodeNameMap> read_node_name_map_file(const std::string& path, std::vector<std::string>* warnings) {
  auto text = read_regular_file(path, kMaxNodeNameMapBytes, "node name map");
  if (!text) return text.error();
  return parse_node_name_map(*text, path, warnings);
}

}  // namespace smd
