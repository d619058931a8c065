#include "config/mgid_text.h"

#include <arpa/inet.h>

#include <cstdio>

namespace smd {

Result<Mgid> parse_mgid(std::string_view text) {
  Mgid mgid{};
  const std::string copy(text);
  if (::inet_pton(AF_INET6, copy.c_str(), mgid.data()) != 1) {
    return make_error(ErrorCode::kInvalidInput, "'" + copy + "' is not a GID in IPv6 notation (ff12:401b::1)");
  }
  if (mgid[0] != 0xff) {
    return make_error(ErrorCode::kInvalidInput, "'" + copy + "' is not a multicast GID: it must start with ff");
  }
  return mgid;
}

std::string format_mgid(const Mgid& mgid) {
  char text[INET6_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET6, mgid.data(), text, sizeof text);
  return text;
}

bool is_ip_mgid(const Mgid& mgid) { return (mgid[2] == 0x40 || mgid[2] == 0x60) && mgid[3] == 0x1b; }

std::uint32_t default_group_q_key(const Mgid& mgid) { return is_ip_mgid(mgid) ? 0x0B1B : 0; }

Status complete_group(McastGroupSpec& group, PKeyBase pkey) {
  group.scope = group.mgid[1] & 0x0f;
  if (!is_ip_mgid(group.mgid)) return Ok{};
  const std::uint16_t bits = static_cast<std::uint16_t>(group.mgid[4] << 8 | group.mgid[5]);
  if (bits == 0) {
    const std::uint16_t full = static_cast<std::uint16_t>(pkey | kPKeyFullBit);
    group.mgid[4] = static_cast<std::uint8_t>(full >> 8);
    group.mgid[5] = static_cast<std::uint8_t>(full & 0xff);
    return Ok{};
  }
  if ((bits & 0x7fff) != pkey) {
    char text[96];
    std::snprintf(text, sizeof text, "MGID P_Key bits 0x%04x do not match the partition's P_Key 0x%04x", bits, pkey);
    return make_error(ErrorCode::kInvalidInput, text);
  }
  return Ok{};
}

}  // namespace smd
