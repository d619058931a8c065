// PortInfo codec: walks the field table of mad/codec/port_info_fields.h (IBA vol. 1, table 149).
#include "mad/codec/port_info.h"

#include "mad/codec/attribute_codec.h"
#include "mad/codec/port_info_fields.h"

namespace smd::mad {

PortInfo PortInfo::decode(const SmpData& data) { return decode_keeping_raw<PortInfo>(data, kPortInfoFields); }

void PortInfo::encode(SmpData& data) const { encode_over_raw(*this, data, kPortInfoFields); }

}  // namespace smd::mad
