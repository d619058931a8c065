// NodeInfo (IBA 14.2.5.3): every 64-byte payload decodes, and encode() gives back the same bytes.
#include "fuzz_util.h"
#include "mad/codec/node_info.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace smd;
  const mad::SmpData in = fuzz::first_bytes<mad::kSmpDataSize>(data, size);
  const mad::NodeInfo ni = mad::NodeInfo::decode(in);
  mad::SmpData out{};
  ni.encode(out);
  fuzz::check(out == in, "NodeInfo decode/encode round trip");
  fuzz::check(ni.node_guid == mad::NodeInfo::decode(out).node_guid, "NodeInfo NodeGUID survives");
  return 0;
}
