// SwitchInfo (IBA 14.2.5.4): every payload decodes and encode() reproduces it; setting LinearFDBTop
// (what the LFT programmer does) changes only bytes 6..7.
#include "fuzz_util.h"
#include "mad/codec/switch_info.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const mad::SmpData in = fuzz::first_bytes<mad::kSmpDataSize>(data, size);
  mad::SwitchInfo si = mad::SwitchInfo::decode(in);
  mad::SmpData out{};
  si.encode(out);
  fuzz::check(out == in, "SwitchInfo decode/encode round trip");
  si.linear_fdb_top = static_cast<std::uint16_t>(~si.linear_fdb_top);
  si.encode(out);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (i != 6 && i != 7) fuzz::check(out[i] == in[i], "SwitchInfo LinearFDBTop Set touches only bytes 6..7");
  }
  return 0;
}
