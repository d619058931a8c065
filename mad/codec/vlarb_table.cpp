// VLArbitrationTable block codec: 32 (VL, weight) byte pairs fill the 64 payload bytes.
#include "mad/codec/vlarb_table.h"

namespace smd::mad {

VlArbBlockData VlArbBlockData::decode(const SmpData& data) {
  VlArbBlockData b;
  for (std::size_t i = 0; i < kVlArbBlockSize; ++i) {
    b.entries[i].vl = static_cast<std::uint8_t>(data[2 * i] & 0x0f);
    b.entries[i].weight = data[2 * i + 1];
  }
  return b;
}

void VlArbBlockData::encode(SmpData& data) const {
  for (std::size_t i = 0; i < kVlArbBlockSize; ++i) {
    data[2 * i] = static_cast<std::uint8_t>(entries[i].vl & 0x0f);
    data[2 * i + 1] = entries[i].weight;
  }
}

}  // namespace smd::mad
