// GUIDInfo block codec: 8 big-endian 64-bit GUIDs fill the 64 payload bytes.
#include "mad/codec/guid_info.h"

namespace smd::mad {

GuidInfoBlock GuidInfoBlock::decode(const SmpData& data) {
  GuidInfoBlock b;
  for (std::size_t i = 0; i < kGuidInfoBlockSize; ++i) {
    std::uint64_t g = 0;
    for (std::size_t k = 0; k < 8; ++k) g = (g << 8) | data[8 * i + k];
    b.guids[i] = g;
  }
  return b;
}

void GuidInfoBlock::encode(SmpData& data) const {
  for (std::size_t i = 0; i < kGuidInfoBlockSize; ++i) {
    for (std::size_t k = 0; k < 8; ++k) data[8 * i + k] = static_cast<std::uint8_t>(guids[i] >> (56 - 8 * k));
  }
}

}  // namespace smd::mad
