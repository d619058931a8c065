// Test helpers for SA records: bit access written independently of mad/sa/record_layout.cpp (MSB-first,
// IBA 13.4.2), and libibmad wrappers for record-relative and MAD-relative fields.
#pragma once

#include <infiniband/mad.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace smd::sa::testing {

/// Bit `bit` of `buf`, counting from the most significant bit of byte 0.
inline bool test_bit(std::span<const std::uint8_t> buf, std::size_t bit) {
  return ((buf[bit / 8] >> (7 - bit % 8)) & 1u) != 0;
}
inline void set_bit(std::span<std::uint8_t> buf, std::size_t bit) {
  buf[bit / 8] = static_cast<std::uint8_t>(buf[bit / 8] | (0x80u >> (bit % 8)));
}
/// Set `width` bits starting at byte `byte`, `msb` bits below its most significant bit.
inline void set_bits(std::span<std::uint8_t> buf, std::size_t byte, unsigned msb, unsigned width) {
  for (unsigned i = 0; i < width; ++i) set_bit(buf, byte * 8 + msb + i);
}
/// The indices of the set bits of `buf`.
inline std::vector<std::size_t> set_bit_list(std::span<const std::uint8_t> buf) {
  std::vector<std::size_t> out;
  for (std::size_t b = 0; b < buf.size() * 8; ++b) {
    if (test_bit(buf, b)) out.push_back(b);
  }
  return out;
}
/// The list [first, first + width).
inline std::vector<std::size_t> bit_range(std::size_t first, std::size_t width) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < width; ++i) out.push_back(first + i);
  return out;
}

/// libibmad reads through void*.
inline std::uint64_t ib_get(std::span<const std::uint8_t> buf, MAD_FIELDS f, bool wide = false) {
  void* p = const_cast<std::uint8_t*>(buf.data());
  return wide ? mad_get_field64(p, 0, f) : mad_get_field(p, 0, f);
}
inline void ib_set(std::span<std::uint8_t> buf, MAD_FIELDS f, std::uint64_t v, bool wide = false) {
  if (wide) {
    mad_set_field64(buf.data(), 0, f, v);
  } else {
    mad_set_field(buf.data(), 0, f, static_cast<std::uint32_t>(v));
  }
}

}  // namespace smd::sa::testing
