// SMInfo (IBA 14.2.5.13): every payload decodes (SMState 4..15 included), encode() reproduces it, and
// the state prints without undefined behaviour.
#include <cstring>

#include "fuzz_util.h"
#include "mad/codec/sm_info.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const mad::SmpData in = fuzz::first_bytes<mad::kSmpDataSize>(data, size);
  const mad::SmInfo s = mad::SmInfo::decode(in);
  mad::SmpData out{};
  s.encode(out);
  fuzz::check(out == in, "SMInfo decode/encode round trip");
  fuzz::check(s.priority < 16, "SMInfo priority is 4 bits");
  const char* name = mad::to_string(s.state);
  fuzz::check(name != nullptr && std::strlen(name) > 0, "SMInfo state has a name");
  return 0;
}
