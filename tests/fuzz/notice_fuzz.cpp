// Notice (IBA 13.4.8.2 / 14.2.5.1): the 64-byte SMP form and the 80-byte SA form decode and encode back
// to the same bytes, and the trap 128/144 accessors read DataDetails in place.
#include "fuzz_util.h"
#include "mad/codec/notice.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const mad::SmpData in = fuzz::first_bytes<mad::kSmpDataSize>(data, size);
  const mad::Notice n = mad::Notice::decode(in);
  mad::SmpData out{};
  n.encode(out);
  fuzz::check(out == in, "Notice (64 bytes) round trip");
  fuzz::check(n.trap128_lid() == (in[10] << 8 | in[11]), "trap 128 LIDADDR is DataDetails 0..1");
  fuzz::check(n.trap144_lid() == (in[12] << 8 | in[13]), "trap 144 LIDADDR is DataDetails 2..3");

  const auto full = fuzz::first_bytes<mad::kNoticeFullSize>(data, size);
  const mad::Notice f = mad::Notice::decode_full(full);
  std::array<std::uint8_t, mad::kNoticeFullSize> full_out{};
  f.encode_full(full_out);
  fuzz::check(full_out == full, "Notice (80 bytes) round trip");
  return 0;
}
