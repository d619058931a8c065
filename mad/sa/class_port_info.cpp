// ClassPortInfo codec (IBA vol. 1, 13.4.8.1, table 116): BaseVersion 0, ClassVersion 1, CapabilityMask 2,
// CapabilityMask2 (27 bits) and RespTimeValue (5 bits) share bytes 4..7; the rest is redirect/trap data.
#include "mad/sa/class_port_info.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr FieldTable kClassPortInfoTable{
    bind<&ClassPortInfo::base_version, bytes_at(0, 1)>,    bind<&ClassPortInfo::class_version, bytes_at(1, 1)>,
    bind<&ClassPortInfo::capability_mask, bytes_at(2, 2)>, bind<&ClassPortInfo::capability_mask2, at(4, 0, 27)>,
    bind<&ClassPortInfo::resp_time_value, at(7, 3, 5)>,
};
constexpr FieldSpan kRedirectQp = bytes_at(33, 3);
constexpr FieldSpan kRedirectQKey = bytes_at(36, 4);
}  // namespace

ClassPortInfo ClassPortInfo::decode(std::span<const std::uint8_t> rec) {
  return decode_record<ClassPortInfo>(rec, kClassPortInfoTable);
}

void ClassPortInfo::encode(std::span<std::uint8_t> rec) const {
  encode_record(*this, rec, kSize, kClassPortInfoTable);
  // Not redirected: the SA answers on QP1 itself (IBA 13.5.1.2 says to report QP1 and the QP1 Q_Key).
  put_field(rec, kRedirectQp, 1);
  put_field(rec, kRedirectQKey, 0x80010000u);
}

}  // namespace smd::mad::sa
