#include "smd/state/drain_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <charconv>
#include <functional>
#include <unordered_set>

#include "config/text_file.h"
#include "routing/base/hex_text.h"
#include "smd/state/atomic_file.h"
#include "smd/state/state_file_lines.h"

namespace smd {
namespace {

constexpr std::size_t kFields = 3;

// The whole field as an unsigned number in `base`; false on anything else (sign, junk, overflow).
template <typename T>
bool whole_number(std::string_view text, int base, T& out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::size_t PortKeyHash::operator()(const PortKey& k) const noexcept {
  // GUIDs of one vendor differ in their low bits; the port goes above the 48 bits those usually span.
  return std::hash<std::uint64_t>{}(k.node_guid ^ (std::uint64_t{k.port} << 56));
}

DrainFileLoad parse_drain_file(std::string_view text, const std::string& name) {
  DrainFileLoad load;
  // Parts seen so far: a file of 170,000 lines searched linearly per line took 35 s (quadratic).
  std::unordered_set<PortKey, PortKeyHash> seen;
  for_each_state_line(
      text, name, kFields, [&](const std::vector<std::string_view>& f, const std::string& where, unsigned line) {
        if (f.size() != kFields) {
          load.problems.push_back(where + "expected '0xGUID PORT checked|forced'");
          return;
        }
        DrainRecord r;
        std::uint64_t guid = 0;
        if (f[0].size() < 3 || f[0].substr(0, 2) != "0x" || !whole_number(f[0].substr(2), 16, guid) || guid == 0) {
          load.problems.push_back(where + "'" + std::string(f[0]) + "' is not a 0x GUID");
          return;
        }
        unsigned port = 0;
        if (!whole_number(f[1], 10, port) || port > 254) {
          load.problems.push_back(where + "port '" + std::string(f[1]) + "' is not 0..254");
          return;
        }
        if (f[2] != "checked" && f[2] != "forced") {
          load.problems.push_back(where + "'" + std::string(f[2]) + "' is neither checked nor forced");
          return;
        }
        r.part = {guid, static_cast<PortNum>(port)};
        r.forced = f[2] == "forced";
        if (!seen.insert(r.part).second) {
          load.problems.push_back(where + hex64_text(guid) + " port " + std::to_string(port) + " is listed twice");
          return;
        }
        load.records.push_back(r);
        load.lines.push_back(line);
      });
  return load;
}

std::string format_drain_file(std::span<const DrainRecord> records) {
  std::string text = "# smd drains (smctl drain / undrain): node GUID, port (0 = whole switch), checked|forced\n";
  for (const DrainRecord& r : records) {
    text += hex64_text(r.part.node_guid) + " " + std::to_string(r.part.port) + (r.forced ? " forced\n" : " checked\n");
  }
  return text;
}

Result<DrainFileLoad> read_drain_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return DrainFileLoad{};
  auto text = read_regular_file(path, kMaxDrainFileBytes, "drain file");
  if (!text) return text.error();
  return parse_drain_file(*text, path);
}

Status write_drain_file(const std::string& path, std::span<const DrainRecord> records) {
  return write_file_atomic(path, format_drain_file(records));
}

}  // namespace smd
