#include "routing/roce/ecmp_hash.h"

#include <algorithm>
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

std::array<std::uint8_t, kFiveTupleKeyBytes> five_tuple_key(const FiveTuple& t) {
  // Header fields in wire (big-endian) order, as the switch parser presents them to the hash engine.
  return {static_cast<std::uint8_t>(t.src_ip >> 24),
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
}

std::uint32_t hash_five_tuple(const FiveTuple& t, std::uint32_t seed) {
  return crc32(five_tuple_key(t), seed == 0 ? 0xFFFFFFFFu : seed);
}

namespace {

std::array<std::uint8_t, kDestQpBytes> qpn_bytes(std::uint32_t dest_qpn) {
  return {static_cast<std::uint8_t>(dest_qpn >> 16), static_cast<std::uint8_t>(dest_qpn >> 8),
          static_cast<std::uint8_t>(dest_qpn)};
}

}  // namespace

std::uint32_t hash_five_tuple_qpn(const FiveTuple& t, std::uint32_t dest_qpn, std::uint32_t seed) {
  const auto head = five_tuple_key(t);
  const auto tail = qpn_bytes(dest_qpn);
  std::array<std::uint8_t, kFiveTupleKeyBytes + kDestQpBytes> key{};
  std::copy(head.begin(), head.end(), key.begin());
  std::copy(tail.begin(), tail.end(), key.begin() + kFiveTupleKeyBytes);
  return crc32(key, seed == 0 ? 0xFFFFFFFFu : seed);
}

std::uint32_t append_qpn(std::uint32_t hash, std::uint32_t dest_qpn) {
  return crc32(qpn_bytes(dest_qpn), hash ^ 0xFFFFFFFFu);
}

namespace {

/// The register after `rounds` zero bytes starting from `r` (one table step per byte).
std::uint32_t shift_zero_bytes(std::uint32_t r, std::size_t rounds) {
  for (std::size_t i = 0; i < rounds; ++i) r = kCrcTable[r & 0xFFu] ^ (r >> 8);
  return r;
}

}  // namespace

std::uint32_t key_byte_term(std::size_t position, std::uint8_t value) {
  // From a zero register the zero bytes before `position` leave it zero; the byte itself loads the
  // table entry, and the bytes after it shift that through.
  return shift_zero_bytes(kCrcTable[value], kFiveTupleKeyBytes - 1 - position);
}

std::uint32_t seed_term(std::uint32_t seed) {
  return shift_zero_bytes(seed == 0 ? 0xFFFFFFFFu : seed, kFiveTupleKeyBytes) ^ 0xFFFFFFFFu;
}

}  // namespace smd::roce
