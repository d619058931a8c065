// The client side of the control socket: send one request line, read one response line. Used by
// smctl and by the control tests. Errors name the socket path and say what the operator can do.
#pragma once

#include <chrono>
#include <string>

#include "routing/base/status.h"
#include "smd/protocol/control_protocol.h"

namespace smd::control {

/// Connect to `socket_path`, send `request` as one line and return the parsed response object (which
/// may itself be `{"ok":false,...}`: that is the daemon's answer, not a call failure). Errors (all kIo):
/// socket missing, permission denied, nobody listening, timeout after `timeout`, connection closed
/// before a full line, or a response that is not a JSON object.
Result<Json> call(const std::string& socket_path, const Json& request,
                  std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace smd::control
