// The syntax of a TCP listen address in the policy (metrics.listen): "HOST:PORT", HOST an IPv4 address,
// an IPv6 address in brackets ("[::1]:9464") or "localhost"; PORT 0..65535 (0 = any free port). Checked
// when the policy loads, so `smd check-config` refuses what the daemon could not bind.
#pragma once

#include <string>
#include <string_view>

#include "routing/base/status.h"

namespace smd {

/// A parsed listen address: `host` is a numeric address ("localhost" becomes "127.0.0.1", brackets are
/// removed), `port` 0..65535.
struct ListenAddress {
  std::string host;
  unsigned port = 0;
};

/// Parse "HOST:PORT". Errors (kInvalidInput, message without location or key, the caller adds them):
/// "expected host:port" (no colon), "port must be 0..65535" (empty, not decimal, or above 65535),
/// "host must be an IP address or localhost" (names are not resolved: a listener must not depend on DNS).
Result<ListenAddress> parse_listen_address(std::string_view text);

}  // namespace smd
