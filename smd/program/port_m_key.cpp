#include "smd/program/port_m_key.h"

#include <nettle/hmac.h>

#include <array>

namespace smd {

namespace {

std::array<std::uint8_t, 8> big_endian(std::uint64_t v) {
  std::array<std::uint8_t, 8> out{};
  for (int i = 7; i >= 0; --i) {
    out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v & 0xFF);
    v >>= 8;
  }
  return out;
}

}  // namespace

std::uint64_t derive_port_m_key(std::uint64_t secret, Guid port_guid) {
  if (secret == 0) return 0;
  const auto key = big_endian(secret);
  const auto message = big_endian(port_guid);
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, key.size(), key.data());
  hmac_sha256_update(&ctx, message.size(), message.data());
  std::array<std::uint8_t, SHA256_DIGEST_SIZE> digest{};
  hmac_sha256_digest(&ctx, digest.size(), digest.data());
  std::uint64_t m_key = 0;
  for (std::size_t i = 0; i < 8; ++i) m_key = (m_key << 8) | digest[i];
  return m_key == 0 ? 1 : m_key;
}

}  // namespace smd
