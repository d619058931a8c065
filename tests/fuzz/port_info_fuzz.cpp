// PortInfo (IBA 14.2.5.6): every payload decodes, encode() reproduces it bit for bit (a Set is
// read-modify-write, so reserved bits must survive), and the 4-bit fields stay within 4 bits.
#include "fuzz_util.h"
#include "mad/codec/port_info.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const mad::SmpData in = fuzz::first_bytes<mad::kSmpDataSize>(data, size);
  mad::PortInfo pi = mad::PortInfo::decode(in);
  mad::SmpData out{};
  pi.encode(out);
  fuzz::check(out == in, "PortInfo decode/encode round trip");
  fuzz::check(pi.port_state < 16 && pi.port_physical_state < 16 && pi.lmc < 8, "PortInfo sub-byte fields in range");
  // What the SM does with it: a Set with PortState NoChange and a new LID keeps every other byte.
  pi.port_state = 0;
  pi.lid = static_cast<std::uint16_t>(size);
  pi.encode(out);
  const auto back = mad::PortInfo::decode(out);
  fuzz::check(back.lid == pi.lid && back.port_state == 0, "PortInfo Set fields written");
  fuzz::check(back.m_key == pi.m_key && back.link_width_active == pi.link_width_active, "PortInfo others kept");
  return 0;
}
