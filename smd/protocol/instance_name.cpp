#include "smd/protocol/instance_name.h"

#include <algorithm>
#include <filesystem>

#include "routing/base/safe_text.h"

namespace smd {
namespace {

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

Error bad_name(std::string_view name, const std::string& why) {
  return make_error(ErrorCode::kInvalidInput, "instance name '" + printable_text(name) + "': " + why);
}

}  // namespace

Status check_instance_name(std::string_view name) {
  if (name.empty()) return bad_name(name, "empty");
  if (name.size() > kMaxInstanceNameLength) {
    return bad_name(std::string(name.substr(0, kMaxInstanceNameLength)) + "...",
                    "longer than " + std::to_string(kMaxInstanceNameLength) + " characters");
  }
  if (!is_alnum(name.front())) return bad_name(name, "must start with a letter or digit");
  // "0x" and hex digits only: meant as a port GUID, so a typo must not pass as a plain name.
  if (name.size() > 2 && name[0] == '0' && (name[1] == 'x' || name[1] == 'X') &&
      std::all_of(name.begin() + 2, name.end(), is_hex)) {
    if (name.size() > 18) return bad_name(name, "a port GUID has at most 16 hex digits");
    if (std::all_of(name.begin() + 2, name.end(), [](char c) { return c == '0'; })) {
      return bad_name(name, "port GUID 0 names no port");
    }
  }
  for (char c : name) {
    if (!is_alnum(c) && c != '_' && c != '.' && c != ':' && c != '-') {
      return bad_name(name, "only letters, digits and _ . : - are allowed (it names a folder)");
    }
  }
  return Ok{};
}

std::optional<Guid> instance_port_guid(std::string_view name) {
  if (name.size() < 3 || name.size() > 18 || name[0] != '0' || (name[1] != 'x' && name[1] != 'X')) return std::nullopt;
  Guid guid = 0;
  for (char c : name.substr(2)) {
    if (!is_hex(c)) return std::nullopt;
    const unsigned digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    guid = (guid << 4) | digit;
  }
  return guid;
}

std::string instance_socket_path(const std::string& socket, std::string_view name) {
  const std::filesystem::path path(socket);
  return (path.parent_path() / std::string(name) / path.filename()).string();
}

std::string instance_state_dir(const std::string& dir, std::string_view name) {
  return (std::filesystem::path(dir) / std::string(name)).string();
}

}  // namespace smd
