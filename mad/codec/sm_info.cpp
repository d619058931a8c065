// SMInfo codec: byte offsets from IBA vol. 1, table 160 (14.2.5.13).
#include "mad/codec/sm_info.h"

#include "mad/codec/bits.h"

namespace smd::mad {

namespace {
namespace off {
constexpr std::size_t kGuid = 0;
constexpr std::size_t kSmKey = 8;
constexpr std::size_t kActCount = 16;
constexpr std::size_t kPriorityState = 20;  // Priority bits 7..4, SMState bits 3..0
}  // namespace off
}  // namespace

const char* to_string(SmState state) {
  switch (state) {
    case SmState::kNotActive: return "NOTACTIVE";
    case SmState::kDiscovering: return "DISCOVERING";
    case SmState::kStandby: return "STANDBY";
    case SmState::kMaster: return "MASTER";
  }
  return "UNKNOWN";
}

SmInfo SmInfo::decode(const SmpData& data) {
  const std::uint8_t* p = data.data();
  SmInfo s;
  s.guid = bits::get64(p, off::kGuid);
  s.sm_key = bits::get64(p, off::kSmKey);
  s.act_count = bits::get32(p, off::kActCount);
  s.priority = bits::get_bits(p, off::kPriorityState, 0, 4);
  s.state = static_cast<SmState>(bits::get_bits(p, off::kPriorityState, 4, 4));
  s.raw = data;
  return s;
}

void SmInfo::encode(SmpData& data) const {
  data = raw;
  std::uint8_t* p = data.data();
  bits::put64(p, off::kGuid, guid);
  bits::put64(p, off::kSmKey, sm_key);
  bits::put32(p, off::kActCount, act_count);
  bits::put_bits(p, off::kPriorityState, 0, 4, priority);
  bits::put_bits(p, off::kPriorityState, 4, 4, static_cast<unsigned>(state));
}

}  // namespace smd::mad
