#include "smd/state/guid2lid_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <map>

#include "config/text_file.h"
#include "smd/state/atomic_file.h"

namespace smd {

namespace {

bool parse_hex(std::string_view token, std::uint64_t max, std::uint64_t& out) {
  if (token.size() < 3 || token[0] != '0' || (token[1] != 'x' && token[1] != 'X')) return false;
  const char* begin = token.data() + 2;
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(begin, end, out, 16);
  return ec == std::errc{} && ptr == end && out <= max;
}

// Whitespace-separated fields of one line (at most `max` + 1, so "too many" is visible).
std::vector<std::string_view> split_fields(std::string_view line, std::size_t max) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (out.size() <= max) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::string hex4(std::uint64_t lid) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04llx", static_cast<unsigned long long>(lid));
  return buf;
}

// 2^n LIDs (n <= 7, the largest LMC) starting at a multiple of 2^n: what an LMC-aligned port holds.
bool is_lmc_range(std::uint64_t min, std::uint64_t max) {
  const std::uint64_t count = max - min + 1;
  return count <= 128 && (count & (count - 1)) == 0 && (min & (count - 1)) == 0;
}

}  // namespace

Guid2LidLoad parse_guid2lid(std::string_view text, const std::string& name) {
  Guid2LidLoad load;
  std::map<Lid, std::pair<Guid, unsigned>> owner;  // LID -> (GUID, line) of the entry that holds it
  unsigned line_no = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const bool last_without_newline = nl == std::string_view::npos;
    const std::string_view line = text.substr(pos, last_without_newline ? std::string_view::npos : nl - pos);
    pos = last_without_newline ? text.size() : nl + 1;
    ++line_no;
    const auto fields = split_fields(line, 3);
    if (fields.empty() || fields[0][0] == '#') continue;
    const std::string where = name + ":" + std::to_string(line_no) + ": " +
                              (last_without_newline ? "truncated last line (no newline): " : "");
    if (fields.size() != 3) {
      load.problems.push_back(where + "expected '0xGUID 0xMINLID 0xMAXLID'");
      continue;
    }
    std::uint64_t guid = 0, min = 0, max = 0;
    if (!parse_hex(fields[0], UINT64_MAX, guid) || !parse_hex(fields[1], kMaxUnicastLid, min) ||
        !parse_hex(fields[2], kMaxUnicastLid, max)) {
      load.problems.push_back(where + "bad hex value or LID above 0xbfff");
      continue;
    }
    const std::string range = hex4(min) + ".." + hex4(max);
    if (min == 0 || max < min) {
      load.problems.push_back(where + "LID range " + range + " is empty or starts at 0");
      continue;
    }
    if (!is_lmc_range(min, max)) {
      load.problems.push_back(where + "LID range " + range +
                              " is not an LMC range (2^n LIDs, n <= 7, starting at a multiple of 2^n)");
      continue;
    }
    if (load.entries.count(guid)) {
      load.problems.push_back(where + "GUID " + std::string(fields[0]) + " listed twice; first entry kept");
      continue;
    }
    // Two ports on one LID: the earlier line wins, the later port gets a free LID from the sweep.
    const auto clash = owner.lower_bound(static_cast<Lid>(min));
    if (clash != owner.end() && clash->first <= max) {
      char guid_text[24];
      std::snprintf(guid_text, sizeof guid_text, "0x%016llx", static_cast<unsigned long long>(clash->second.first));
      load.problems.push_back(where + "LID " + hex4(clash->first) + " already belongs to GUID " + guid_text +
                              " (line " + std::to_string(clash->second.second) + "); first entry kept");
      continue;
    }
    for (std::uint64_t l = min; l <= max; ++l) owner.emplace(static_cast<Lid>(l), std::pair{guid, line_no});
    load.entries.emplace(guid, LidRange{static_cast<Lid>(min), static_cast<Lid>(max)});
  }
  return load;
}

Result<Guid2LidLoad> read_guid2lid(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return Guid2LidLoad{};  // first start: nothing remembered
  auto text = read_regular_file(path, kMaxGuid2LidBytes, "guid2lid file");
  if (!text) return text.error();
  return parse_guid2lid(*text, path);
}

std::string format_guid2lid(const Guid2Lid& entries) {
  std::vector<std::pair<Guid, LidRange>> sorted(entries.begin(), entries.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.min != b.second.min ? a.second.min < b.second.min : a.first < b.first;
  });
  std::string text;
  text.reserve(sorted.size() * 32);
  char line[64];
  for (const auto& [guid, range] : sorted) {
    std::snprintf(line, sizeof line, "0x%016llx 0x%04x 0x%04x\n", static_cast<unsigned long long>(guid), range.min,
                  range.max);
    text += line;
  }
  return text;
}

Status write_guid2lid(const std::string& path, const Guid2Lid& entries) {
  return write_file_atomic(path, format_guid2lid(entries));
}

}  // namespace smd
