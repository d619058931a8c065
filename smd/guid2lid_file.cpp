#include "smd/guid2lid_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "smd/atomic_file.h"

namespace smd {

namespace {

bool parse_hex(const std::string& token, std::uint64_t max, std::uint64_t& out) {
  if (token.size() < 3 || token[0] != '0' || (token[1] != 'x' && token[1] != 'X')) return false;
  const char* begin = token.data() + 2;
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(begin, end, out, 16);
  return ec == std::errc{} && ptr == end && out <= max;
}

std::string errno_text(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

}  // namespace

Result<Guid2LidLoad> read_guid2lid(const std::string& path) {
  Guid2LidLoad load;
  std::ifstream in(path);
  if (!in) {
    if (errno == ENOENT) return load;
    return make_error(ErrorCode::kIo, errno_text("open", path));
  }
  std::string line;
  unsigned line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::istringstream fields(line);
    std::string g, lo, hi, extra;
    fields >> g >> lo >> hi;
    const std::string where = path + ":" + std::to_string(line_no) + ": ";
    if (hi.empty() || (fields >> extra)) {
      load.problems.push_back(where + "expected '0xGUID 0xMINLID 0xMAXLID'");
      continue;
    }
    std::uint64_t guid = 0, min = 0, max = 0;
    if (!parse_hex(g, UINT64_MAX, guid) || !parse_hex(lo, kMaxUnicastLid, min) || !parse_hex(hi, kMaxUnicastLid, max)) {
      load.problems.push_back(where + "bad hex value or LID above 0xbfff");
      continue;
    }
    if (min == 0 || max < min) {
      load.problems.push_back(where + "LID range " + lo + ".." + hi + " is empty or starts at 0");
      continue;
    }
    if (!load.entries.emplace(guid, LidRange{static_cast<Lid>(min), static_cast<Lid>(max)}).second) {
      load.problems.push_back(where + "GUID " + g + " listed twice; first entry kept");
    }
  }
  if (in.bad()) return make_error(ErrorCode::kIo, errno_text("read", path));
  return load;
}

Status write_guid2lid(const std::string& path, const Guid2Lid& entries) {
  std::vector<std::pair<Guid, LidRange>> sorted(entries.begin(), entries.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.min < b.second.min; });
  std::string text;
  text.reserve(sorted.size() * 32);
  char line[64];
  for (const auto& [guid, range] : sorted) {
    std::snprintf(line, sizeof line, "0x%016llx 0x%04x 0x%04x\n", static_cast<unsigned long long>(guid), range.min,
                  range.max);
    text += line;
  }

  return write_file_atomic(path, text);
}

}  // namespace smd
