// LinearForwardingTable block (IBA 14.2.5.10): the 64 bytes are the 64 entries, in LID order.
#include "fuzz_util.h"
#include "mad/codec/lft_block.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const mad::SmpData in = fuzz::first_bytes<mad::kSmpDataSize>(data, size);
  const mad::LftBlock b = mad::LftBlock::decode(in);
  for (std::size_t i = 0; i < mad::kLftBlockSize; ++i) fuzz::check(b.ports[i] == in[i], "LFT entry i is byte i");
  mad::SmpData out{};
  b.encode(out);
  fuzz::check(out == in, "LFT block round trip");
  const auto lid = static_cast<std::uint16_t>(in[0] << 8 | in[1]);
  fuzz::check(mad::LftBlock::block_of(lid) * mad::kLftBlockSize <= lid &&
                  lid < (mad::LftBlock::block_of(lid) + 1) * mad::kLftBlockSize,
              "block_of(lid) holds lid");
  return 0;
}
