// The control socket's wire protocol: one JSON object per line each way. A request names a command
// (`{"cmd":"route","src":"host-0","dst":"host-5"}`); the response is `{"ok":true,"result":{...}}` or
// `{"ok":false,"error":"..."}`. Shared by the daemon's server (smd/control) and smctl; needs nothing but
// nlohmann-json, so smctl links no fabric code.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "routing/base/status.h"

namespace smd::control {

using Json = nlohmann::json;

/// Largest request line the server accepts (bytes, newline included); longer requests are refused.
inline constexpr std::size_t kMaxRequestBytes = 64 * 1024;

/// Largest RoCE plan `export` returns inline (bytes); bigger plans are named by path instead.
inline constexpr std::uintmax_t kMaxExportBytes = 16 * 1024 * 1024;

/// `{"ok":true,"result":result}`.
Json ok_response(Json result);
/// `{"ok":false,"error":message}`.
Json error_response(const std::string& message);
/// One response as it goes on the wire: compact JSON plus '\n'. Invalid UTF-8 (node descriptions come
/// from the fabric) is replaced, never thrown.
std::string to_line(const Json& response);

/// Parse one request line. Errors: kInvalidInput when it is not JSON, not an object, or has no string "cmd".
Result<Json> parse_request(std::string_view line);

}  // namespace smd::control
