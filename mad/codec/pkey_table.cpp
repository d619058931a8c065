// P_KeyTable block codec: 32 big-endian 16-bit entries fill the 64 payload bytes.
#include "mad/codec/pkey_table.h"

namespace smd::mad {

PKeyBlock PKeyBlock::decode(const SmpData& data) {
  PKeyBlock b;
  for (std::size_t i = 0; i < kPKeyBlockSize; ++i) {
    b.entries[i] = static_cast<std::uint16_t>((data[2 * i] << 8) | data[2 * i + 1]);
  }
  return b;
}

void PKeyBlock::encode(SmpData& data) const {
  for (std::size_t i = 0; i < kPKeyBlockSize; ++i) {
    data[2 * i] = static_cast<std::uint8_t>(entries[i] >> 8);
    data[2 * i + 1] = static_cast<std::uint8_t>(entries[i] & 0xff);
  }
}

}  // namespace smd::mad
