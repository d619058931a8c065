// SLtoVLMappingTable codec: two SLs per byte, the even SL in the high nibble.
#include "mad/codec/sl2vl_table.h"

#include <algorithm>

namespace smd::mad {

Sl2VlTable Sl2VlTable::decode(const SmpData& data) {
  Sl2VlTable t;
  for (std::size_t k = 0; k < kSlCount / 2; ++k) {
    t.vl[2 * k] = static_cast<std::uint8_t>(data[k] >> 4);
    t.vl[2 * k + 1] = static_cast<std::uint8_t>(data[k] & 0x0f);
  }
  return t;
}

void Sl2VlTable::encode(SmpData& data) const {
  std::fill(data.begin(), data.end(), std::uint8_t{0});
  for (std::size_t k = 0; k < kSlCount / 2; ++k) {
    data[k] = static_cast<std::uint8_t>(((vl[2 * k] & 0x0f) << 4) | (vl[2 * k + 1] & 0x0f));
  }
}

}  // namespace smd::mad
