// Big-endian field access for MAD buffers. IBA fields are packed most-significant bit first
// (IBA vol. 1, 13.4.2 "byte and bit ordering"): byte 0 is sent first and bit 7 of a byte is its first bit.
// Every SMP attribute field used by smd is either a whole number of bytes (1..8) or a run of bits that
// stays inside one byte, so these two shapes are all the codecs need.
#pragma once

#include <cstddef>
#include <cstdint>

namespace smd::mad::bits {

/// Read an unsigned big-endian integer of `n` bytes (1..8) at byte offset `off`.
inline std::uint64_t get_be(const std::uint8_t* buf, std::size_t off, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | buf[off + i];
  return v;
}

/// Write the low `n` bytes (1..8) of `v` big-endian at byte offset `off`; higher bits of `v` are dropped.
inline void put_be(std::uint8_t* buf, std::size_t off, std::size_t n, std::uint64_t v) {
  for (std::size_t i = n; i-- > 0;) {
    buf[off + i] = static_cast<std::uint8_t>(v & 0xFF);
    v >>= 8;
  }
}

inline std::uint8_t get8(const std::uint8_t* buf, std::size_t off) { return buf[off]; }
inline std::uint16_t get16(const std::uint8_t* buf, std::size_t off) {
  return static_cast<std::uint16_t>(get_be(buf, off, 2));
}
inline std::uint32_t get24(const std::uint8_t* buf, std::size_t off) {
  return static_cast<std::uint32_t>(get_be(buf, off, 3));
}
inline std::uint32_t get32(const std::uint8_t* buf, std::size_t off) {
  return static_cast<std::uint32_t>(get_be(buf, off, 4));
}
inline std::uint64_t get64(const std::uint8_t* buf, std::size_t off) { return get_be(buf, off, 8); }

inline void put8(std::uint8_t* buf, std::size_t off, std::uint8_t v) { buf[off] = v; }
inline void put16(std::uint8_t* buf, std::size_t off, std::uint16_t v) { put_be(buf, off, 2, v); }
inline void put24(std::uint8_t* buf, std::size_t off, std::uint32_t v) { put_be(buf, off, 3, v); }
inline void put32(std::uint8_t* buf, std::size_t off, std::uint32_t v) { put_be(buf, off, 4, v); }
inline void put64(std::uint8_t* buf, std::size_t off, std::uint64_t v) { put_be(buf, off, 8, v); }

/// Mask of `width` low bits (width 1..8).
inline constexpr std::uint8_t low_mask(unsigned width) { return static_cast<std::uint8_t>((1u << width) - 1u); }

/// Read `width` bits (1..8) of byte `off`, starting `msb` bits below its most significant bit.
/// Example: PortInfo:LMC is byte 34, msb 5, width 3 (the three least significant bits).
inline std::uint8_t get_bits(const std::uint8_t* buf, std::size_t off, unsigned msb, unsigned width) {
  const unsigned shift = 8 - msb - width;
  return static_cast<std::uint8_t>((buf[off] >> shift) & low_mask(width));
}

/// Write `width` bits (1..8) of byte `off` at `msb` (as get_bits); the other bits of the byte are kept,
/// which is what preserves reserved bits across a read-modify-write.
inline void put_bits(std::uint8_t* buf, std::size_t off, unsigned msb, unsigned width, unsigned v) {
  const unsigned shift = 8 - msb - width;
  const auto mask = static_cast<std::uint8_t>(low_mask(width) << shift);
  buf[off] = static_cast<std::uint8_t>((buf[off] & ~mask) | ((v << shift) & mask));
}

}  // namespace smd::mad::bits
