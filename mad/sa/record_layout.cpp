// ComponentMask comparison of SA records. Fields are up to 64 bits when read as numbers (field_table.h);
// wider fields (GIDs, strings, tables) are only ever compared or copied whole, byte-aligned in every SA record.
#include "mad/sa/record_layout.h"

#include <cstring>

namespace smd::mad::sa {

namespace {
bool bit_at(std::span<const std::uint8_t> rec, std::size_t bit) { return (rec[bit / 8] >> (7 - bit % 8)) & 1u; }
}  // namespace

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
