// NodeDescription (IBA 14.2.5.2): every payload decodes to at most 64 bytes without a NUL, an unchanged
// description encodes to the same bytes, and a changed one to the text followed by NULs.
#include <cstring>

#include "fuzz_util.h"
#include "mad/codec/node_description.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const mad::SmpData in = fuzz::first_bytes<mad::kSmpDataSize>(data, size);
  mad::NodeDescription nd = mad::NodeDescription::decode(in);
  fuzz::check(nd.text.size() <= mad::kSmpDataSize, "NodeDescription text fits in 64 bytes");
  fuzz::check(nd.text.find('\0') == std::string::npos, "NodeDescription text stops at the first NUL");
  mad::SmpData out{};
  nd.encode(out);
  fuzz::check(out == in, "NodeDescription decode/encode round trip");
  // Replace the text by the rest of the input (any length): encode cuts it at 64 bytes and pads with NULs.
  nd.text.assign(reinterpret_cast<const char*>(data), size);
  nd.encode(out);
  const std::size_t kept = std::min(size, mad::kSmpDataSize);
  if (nd.text != mad::NodeDescription::decode(in).text) {
    fuzz::check(std::memcmp(out.data(), data, kept) == 0, "NodeDescription text written first");
    for (std::size_t i = kept; i < out.size(); ++i) fuzz::check(out[i] == 0, "NodeDescription padded with NUL");
  }
  return 0;
}
