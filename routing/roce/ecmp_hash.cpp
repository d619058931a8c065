#include "routing/roce/ecmp_hash.h"

#include <array>

namespace smd::roce {
namespace {

// 256-entry table of the reflected CRC-32 polynomial, built at compile time: entry b is the register
// after shifting the byte b through eight rounds of "shift right, xor polynomial if the low bit was 1".
constexpr std::array<std::uint32_t, 256> make_crc_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t b = 0; b < 256; ++b) {
    std::uint32_t r = b;
    for (int i = 0; i < 8; ++i) r = (r & 1u) ? (r >> 1) ^ 0xEDB88320u : (r >> 1);
    table[b] = r;
  }
  return table;
}

constexpr std::array<std::uint32_t, 256> kCrcTable = make_crc_table();

}  // namespace

std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t init) {
  std::uint32_t r = init;
  for (std::uint8_t b : bytes) r = kCrcTable[(r ^ b) & 0xFFu] ^ (r >> 8);
  return r ^ 0xFFFFFFFFu;
}

std::uint32_t hash_five_tuple(const FiveTuple& t, std::uint32_t seed) {
  // Header fields in wire (big-endian) order, as the switch parser presents them to the hash engine.
  const std::array<std::uint8_t, 13> key = {static_cast<std::uint8_t>(t.src_ip >> 24),
                                            static_cast<std::uint8_t>(t.src_ip >> 16),
                                            static_cast<std::uint8_t>(t.src_ip >> 8),
                                            static_cast<std::uint8_t>(t.src_ip),
                                            static_cast<std::uint8_t>(t.dst_ip >> 24),
                                            static_cast<std::uint8_t>(t.dst_ip >> 16),
                                            static_cast<std::uint8_t>(t.dst_ip >> 8),
                                            static_cast<std::uint8_t>(t.dst_ip),
                                            t.proto,
                                            static_cast<std::uint8_t>(t.src_port >> 8),
                                            static_cast<std::uint8_t>(t.src_port),
                                            static_cast<std::uint8_t>(t.dst_port >> 8),
                                            static_cast<std::uint8_t>(t.dst_port)};
  return crc32(key, seed == 0 ? 0xFFFFFFFFu : seed);
}

}  // namespace smd::roce
