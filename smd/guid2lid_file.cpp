#include "smd/guid2lid_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

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

Status write_all(int fd, const std::string& data, const std::string& path) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorCode::kIo, errno_text("write", path));
    }
    done += static_cast<std::size_t>(n);
  }
  return Ok{};
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
    if (!parse_hex(g, UINT64_MAX, guid) || !parse_hex(lo, kMaxUnicastLid, min) ||
        !parse_hex(hi, kMaxUnicastLid, max)) {
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

  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return make_error(ErrorCode::kIo, errno_text("create", tmp));
  Status st = write_all(fd, text, tmp);
  if (st.ok() && ::fsync(fd) != 0) st = make_error(ErrorCode::kIo, errno_text("fsync", tmp));
  if (::close(fd) != 0 && st.ok()) st = make_error(ErrorCode::kIo, errno_text("close", tmp));
  if (!st.ok()) {
    ::unlink(tmp.c_str());
    return st;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const Error e = make_error(ErrorCode::kIo, errno_text("rename to", path));
    ::unlink(tmp.c_str());
    return e;
  }
  // The rename is durable only once the directory entry is on disk.
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Ok{};
}

}  // namespace smd
