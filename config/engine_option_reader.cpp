#include "config/engine_option_reader.h"

#include <unordered_map>

#include "config/guid_list_file.h"
#include "config/text_file.h"

namespace smd {
namespace {

// A relative path is taken from the policy's folder, as sm.node_name_map and netfile includes: the daemon's
// working directory (/ under systemd) never matters.
std::string from_policy_folder(const std::string& path, const std::string& policy) {
  if (path.empty() || path.front() == '/' || policy.rfind('/') == std::string::npos) return path;
  return policy.substr(0, policy.rfind('/') + 1) + path;
}

/// Reads the path under `key` and parses the file it names with `read`; a problem in the file is
/// reported at the key, its message carrying the file's own place.
template <class T, class Read>
bool read_file_key(MapReader& section, const std::string& policy, std::string_view key, std::vector<T>& out,
                   Read read) {
  std::string path;
  const std::size_t before = section.diagnostics().failures();
  section.read_string(key, path);
  if (section.diagnostics().failures() != before) return false;
  if (path.empty()) return true;  // absent, or "": no file (how the shipped policy writes the default)
  auto parsed = read(from_policy_folder(path, policy));
  if (!parsed.ok()) {
    section.fail_key(key, parsed.error().message);
    return false;
  }
  out = std::move(parsed).value();
  return true;
}

}  // namespace

bool MapOptionReader::read_guid_list(std::string_view key, std::vector<Guid>& out) {
  return clean([&] { section_.read_guid_list(key, out); });
}

bool MapOptionReader::read_guid_list_file(std::string_view key, std::vector<Guid>& out) {
  return read_file_key(section_, diag_.source(), key, out,
                       [](const std::string& path) { return smd::read_guid_list_file(path); });
}

bool MapOptionReader::read_guid_id_file(std::string_view key, std::vector<GuidId>& out) {
  return read_file_key(section_, diag_.source(), key, out,
                       [](const std::string& path) { return smd::read_guid_id_file(path); });
}

bool MapOptionReader::read_guid_id_map(std::string_view key, std::vector<GuidId>& out) {
  const std::size_t before = diag_.failures();
  std::optional<MapReader::Raw> raw = section_.read_raw(key);
  if (!raw) return true;
  if (!raw->node.IsMap()) {
    diag_.fail(raw->mark, raw->path, "expected a map of switch GUID: id, got " + describe_kind(raw->node));
    return false;
  }
  std::vector<GuidId> pairs;
  std::unordered_map<Guid, std::string> first;  // GUID -> how it was first written
  for (const auto& item : raw->node) {
    const YAML::Mark mark = item.first.Mark();
    const std::string text = item.first.IsScalar() ? item.first.Scalar() : describe_kind(item.first);
    const std::string path = raw->path + "[" + text + "]";
    auto guid = item.first.IsScalar()
                    ? parse_unsigned(text)
                    : Result<std::uint64_t>(make_error(ErrorCode::kInvalidInput, "expected a GUID, got " + text));
    if (!guid.ok()) {
      diag_.fail(mark, path, guid.error().message);
      continue;
    }
    if (*guid == 0) {
      diag_.fail(mark, path, "GUID 0 is not a valid node GUID");
      continue;
    }
    if (auto [seen, fresh] = first.try_emplace(*guid, text); !fresh) {
      diag_.fail(mark, path, text + " is listed twice (first as " + seen->second + ")");
      continue;
    }
    auto id = item.second.IsScalar()
                  ? parse_unsigned(item.second.Scalar())
                  : Result<std::uint64_t>(
                        make_error(ErrorCode::kInvalidInput, "expected an id, got " + describe_kind(item.second)));
    if (!id.ok()) {
      diag_.fail(item.second.IsNull() ? mark : item.second.Mark(), path, id.error().message);
      continue;
    }
    pairs.push_back(GuidId{*guid, *id});
  }
  if (diag_.failures() != before) return false;
  out = std::move(pairs);
  return true;
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
  std::string resolved = from_policy_folder(path, diag_.source());
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
