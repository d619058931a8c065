// An smd instance: one SM on one port of a host that runs several (one subnet per rail, as Debian's
// opensm@.service). The instance's name picks its state folder and control socket; the rules live here,
// shared by smd and smctl, so `smctl --instance NAME` always finds the socket `smd --instance NAME` made.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// Longest instance name (characters). A port GUID ("0x" + 16 hex digits) needs 18.
inline constexpr std::size_t kMaxInstanceNameLength = 64;

/// Ok when `name` may name an instance: 1..64 characters of [A-Za-z0-9_.:-], the first a letter or digit
/// (so never "..", "-x", a hidden file or a path: the name becomes a folder). Else kInvalidInput with a
/// message that quotes the name (printable) and says what is wrong.
Status check_instance_name(std::string_view name);

/// The port GUID of an instance named "0x" + 1..16 hex digits (the systemd instance syntax, as
/// `opensm --guid`); nullopt for any other name (such an instance takes its port from its policy).
std::optional<Guid> instance_port_guid(std::string_view name);

/// `socket` with the instance's folder put before the file name:
/// ("/run/smd/control.socket", "rail0") -> "/run/smd/rail0/control.socket". `name` passed check_instance_name.
std::string instance_socket_path(const std::string& socket, std::string_view name);

/// `dir` + "/" + `name`: ("/var/lib/smd", "rail0") -> "/var/lib/smd/rail0".
std::string instance_state_dir(const std::string& dir, std::string_view name);

}  // namespace smd
