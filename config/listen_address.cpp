#include "config/listen_address.h"

#include <arpa/inet.h>

#include <charconv>

namespace smd {

Result<ListenAddress> parse_listen_address(std::string_view text) {
  const auto bad = [](const char* why) { return make_error(ErrorCode::kInvalidInput, why); };
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("expected host:port");
  std::string host(text.substr(0, colon));
  const std::string_view port_text = text.substr(colon + 1);
  unsigned port = 0;
  const char* end = port_text.data() + port_text.size();
  const auto [stop, ec] = std::from_chars(port_text.data(), end, port);
  if (port_text.empty() || port_text.size() > 5 || ec != std::errc() || stop != end || port > 65535) {
    return bad("port must be 0..65535");
  }
  const bool bracketed = host.size() >= 2 && host.front() == '[' && host.back() == ']';
  if (bracketed) host = host.substr(1, host.size() - 2);
  if (host == "localhost" && !bracketed) host = "127.0.0.1";
  unsigned char scratch[16];
  const bool v4 = !bracketed && ::inet_pton(AF_INET, host.c_str(), scratch) == 1;
  const bool v6 = ::inet_pton(AF_INET6, host.c_str(), scratch) == 1;
  if (!v4 && !v6) return bad("host must be an IP address or localhost");
  return ListenAddress{host, port};
}

}  // namespace smd
