// Bit-field access for SA records. Fields are up to 64 bits when read as numbers; wider fields (GIDs,
// strings, tables) are only ever compared or copied whole, byte-aligned in every SA record.
#include "mad/sa/record_layout.h"

#include <cstring>

namespace smd::mad::sa {

namespace {
bool bit_at(std::span<const std::uint8_t> rec, std::size_t bit) { return (rec[bit / 8] >> (7 - bit % 8)) & 1u; }
}  // namespace

std::uint64_t get_field(std::span<const std::uint8_t> rec, FieldSpan f) {
  std::uint64_t v = 0;
  if (f.bit_offset % 8 == 0 && f.bit_width % 8 == 0) {
    for (std::size_t i = 0; i < f.bit_width / 8u; ++i) v = (v << 8) | rec[f.bit_offset / 8u + i];
    return v;
  }
  for (std::size_t b = 0; b < f.bit_width; ++b) v = (v << 1) | (bit_at(rec, f.bit_offset + b) ? 1u : 0u);
  return v;
}

void put_field(std::span<std::uint8_t> rec, FieldSpan f, std::uint64_t v) {
  if (f.bit_offset % 8 == 0 && f.bit_width % 8 == 0) {
    for (std::size_t i = f.bit_width / 8u; i-- > 0;) {
      rec[f.bit_offset / 8u + i] = static_cast<std::uint8_t>(v & 0xFF);
      v >>= 8;
    }
    return;
  }
  for (std::size_t b = f.bit_width; b-- > 0;) {
    const std::size_t bit = f.bit_offset + b;
    const auto mask = static_cast<std::uint8_t>(1u << (7 - bit % 8));
    rec[bit / 8] = static_cast<std::uint8_t>((v & 1u) ? (rec[bit / 8] | mask) : (rec[bit / 8] & ~mask));
    v >>= 1;
  }
}

bool field_equal(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b, FieldSpan f) {
  if (f.bit_offset % 8 == 0 && f.bit_width % 8 == 0) {
    return std::memcmp(a.data() + f.bit_offset / 8u, b.data() + f.bit_offset / 8u, f.bit_width / 8u) == 0;
  }
  for (std::size_t bit = f.bit_offset; bit < static_cast<std::size_t>(f.bit_offset) + f.bit_width; ++bit) {
    if (bit_at(a, bit) != bit_at(b, bit)) return false;
  }
  return true;
}

bool matches(const RecordLayout& layout, std::uint64_t comp_mask, std::span<const std::uint8_t> tmpl,
             std::span<const std::uint8_t> candidate) {
  comp_mask &= known_components(layout);
  for (unsigned n = 0; comp_mask != 0; ++n, comp_mask >>= 1) {
    if ((comp_mask & 1u) && !field_equal(tmpl, candidate, layout.fields[n])) return false;
  }
  return true;
}

}  // namespace smd::mad::sa
