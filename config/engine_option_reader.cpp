#include "config/engine_option_reader.h"

#include "config/text_file.h"

namespace smd {

bool MapOptionReader::read_guid_list(std::string_view key, std::vector<Guid>& out) {
  return clean([&] { section_.read_guid_list(key, out); });
}

bool MapOptionReader::read_bool(std::string_view key, bool& out) {
  return clean([&] { section_.read_bool(key, out); });
}

bool MapOptionReader::read_unsigned(std::string_view key, std::uint64_t lo, std::uint64_t hi, unsigned& out) {
  return clean([&] { section_.read_unsigned(key, lo, hi, out); });
}

bool MapOptionReader::read_file(std::string_view key, std::size_t max_bytes, File& out) {
  std::string path;
  if (!clean([&] { section_.read_string(key, path); })) return false;
  if (path.empty()) return true;
  // From the policy's folder, as sm.node_name_map and netfile includes: the daemon's cwd never matters.
  std::string resolved = path;
  const std::string& policy = diag_.source();
  if (resolved.front() != '/' && policy.rfind('/') != std::string::npos) {
    resolved = policy.substr(0, policy.rfind('/') + 1) + resolved;
  }
  auto text = read_regular_file(resolved, max_bytes, "file");
  if (!text) {
    section_.fail_key(key, text.error().message);
    return false;
  }
  out = File{std::move(path), std::move(resolved), std::move(text).value()};
  return true;
}

void MapOptionReader::fail(std::string_view key, const std::string& message) { section_.fail_key(key, message); }

}  // namespace smd
