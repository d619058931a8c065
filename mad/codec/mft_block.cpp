// MulticastForwardingTable block codec: 32 big-endian 16-bit PortMasks, in MLID order.
#include "mad/codec/mft_block.h"

#include "mad/codec/bits.h"

namespace smd::mad {

MftBlock MftBlock::decode(const SmpData& data) {
  MftBlock b;
  for (unsigned i = 0; i < kMftBlockSize; ++i) b.masks[i] = bits::get16(data.data(), 2 * i);
  return b;
}

void MftBlock::encode(SmpData& data) const {
  for (unsigned i = 0; i < kMftBlockSize; ++i) bits::put16(data.data(), 2 * i, masks[i]);
}

}  // namespace smd::mad
