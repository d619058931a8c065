// SMInfo codec: the field table of IBA vol. 1, table 160 (14.2.5.13).
#include "mad/codec/sm_info.h"

#include "mad/codec/attribute_codec.h"

namespace smd::mad {

namespace {
constexpr FieldTable kSmInfoFields{
    bind<&SmInfo::guid, bytes_at(0, 8)>,       bind<&SmInfo::sm_key, bytes_at(8, 8)>,
    bind<&SmInfo::act_count, bytes_at(16, 4)>, bind<&SmInfo::priority, at(20, 0, 4)>,
    bind<&SmInfo::state, at(20, 4, 4)>,
};
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

SmInfo SmInfo::decode(const SmpData& data) { return decode_keeping_raw<SmInfo>(data, kSmInfoFields); }

void SmInfo::encode(SmpData& data) const { encode_over_raw(*this, data, kSmInfoFields); }

}  // namespace smd::mad
