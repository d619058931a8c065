// LinearForwardingTable block codec: the 64 payload bytes are the 64 entries, in LID order.
#include "mad/codec/lft_block.h"

namespace smd::mad {

LftBlock LftBlock::decode(const SmpData& data) {
  LftBlock b;
  b.ports = data;
  return b;
}

void LftBlock::encode(SmpData& data) const { data = ports; }

}  // namespace smd::mad
