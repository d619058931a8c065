#include "smd/state/guid2lid_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <map>

#include "config/text_file.h"
#include "routing/base/hex_text.h"
#include "smd/state/atomic_file.h"
#include "smd/state/state_file_lines.h"

namespace smd {

namespace {

bool parse_hex(std::string_view token, std::uint64_t max, std::uint64_t& out) {
  if (token.size() < 3 || token[0] != '0' || (token[1] != 'x' && token[1] != 'X')) return false;
  const char* begin = token.data() + 2;
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(begin, end, out, 16);
  return ec == std::errc{} && ptr == end && out <= max;
}

// 2^n LIDs (n <= 7, the largest LMC) starting at a multiple of 2^n: what an LMC-aligned port holds.
bool is_lmc_range(std::uint64_t min, std::uint64_t max) {
  const std::uint64_t count = max - min + 1;
  return count <= 128 && (count & (count - 1)) == 0 && (min & (count - 1)) == 0;
}

// LID -> (GUID, line) of the entry that holds it.
using LidOwners = std::map<Lid, std::pair<Guid, unsigned>>;

// One guid2lid line into `load`: an entry, or a problem saying why the line is left out (the earlier
// line wins every conflict, so a hand edit appended at the end never takes a LID from a running port).
void take_guid2lid_line(const std::vector<std::string_view>& fields, const std::string& where, unsigned line_no,
                        Guid2LidLoad& load, LidOwners& owner) {
  if (fields.size() != 3) {
    load.problems.push_back(where + "expected '0xGUID 0xMINLID 0xMAXLID'");
    return;
  }
  std::uint64_t guid = 0, min = 0, max = 0;
  if (!parse_hex(fields[0], UINT64_MAX, guid) || !parse_hex(fields[1], kMaxUnicastLid, min) ||
      !parse_hex(fields[2], kMaxUnicastLid, max)) {
    load.problems.push_back(where + "bad hex value or LID above 0xbfff");
    return;
  }
  const std::string range = hex_text(min, 4) + ".." + hex_text(max, 4);
  if (min == 0 || max < min) {
    load.problems.push_back(where + "LID range " + range + " is empty or starts at 0");
    return;
  }
  if (!is_lmc_range(min, max)) {
    load.problems.push_back(where + "LID range " + range +
                            " is not an LMC range (2^n LIDs, n <= 7, starting at a multiple of 2^n)");
    return;
  }
  if (load.entries.count(guid)) {
    load.problems.push_back(where + "GUID " + std::string(fields[0]) + " listed twice; first entry kept");
    return;
  }
  // Two ports on one LID: the earlier line wins, the later port gets a free LID from the sweep.
  const auto clash = owner.lower_bound(static_cast<Lid>(min));
  if (clash != owner.end() && clash->first <= max) {
    load.problems.push_back(where + "LID " + hex_text(clash->first, 4) + " already belongs to GUID " +
                            hex64_text(clash->second.first) + " (line " + std::to_string(clash->second.second) +
                            "); first entry kept");
    return;
  }
  for (std::uint64_t l = min; l <= max; ++l) owner.emplace(static_cast<Lid>(l), std::pair{guid, line_no});
  load.entries.emplace(guid, LidRange{static_cast<Lid>(min), static_cast<Lid>(max)});
  load.lines.emplace(guid, line_no);
}

}  // namespace

Guid2LidLoad parse_guid2lid(std::string_view text, const std::string& name) {
  Guid2LidLoad load;
  LidOwners owner;
  for_each_state_line(text, name, 3,
                      [&](const std::vector<std::string_view>& fields, const std::string& where, unsigned line_no) {
                        take_guid2lid_line(fields, where, line_no, load, owner);
                      });
  return load;
}

Result<Guid2LidLoad> read_guid2lid(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return Guid2LidLoad{};  // first start: nothing remembered
  auto text = read_regular_file(path, kMaxGuid2LidBytes, "guid2lid file");
  if (!text) return text.error();
  return parse_guid2lid(*text, path);
}

std::vector<std::string> guid2lid_above_lft_cap(const Guid2LidLoad& load, const std::string& name,
                                                const Topology& topo) {
  const unsigned ceiling = max_forwardable_lid(topo);
  std::map<unsigned, std::string> by_line;
  for (const auto& [guid, range] : load.entries) {
    if (range.max <= ceiling) continue;
    const auto line = load.lines.find(guid);
    const unsigned line_no = line == load.lines.end() ? 0 : line->second;
    const std::string lids = range.min == range.max ? "LID " + hex_text(range.min, 4)
                                                    : "LIDs " + hex_text(range.min, 4) + ".." + hex_text(range.max, 4);
    by_line.emplace(line_no, name + ":" + std::to_string(line_no) + ": GUID " + hex64_text(guid) + " " + lids +
                                 " is above " + hex_text(ceiling, 4) +
                                 ", the highest LID every switch can forward (smallest LinearFDBCap); the port "
                                 "gets a new LID");
  }
  std::vector<std::string> out;
  for (auto& [line_no, text] : by_line) out.push_back(std::move(text));
  return out;
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
