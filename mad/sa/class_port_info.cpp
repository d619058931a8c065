// ClassPortInfo codec (IBA vol. 1, 13.4.8.1, table 116): BaseVersion 0, ClassVersion 1, CapabilityMask 2,
// CapabilityMask2 (27 bits) and RespTimeValue (5 bits) share bytes 4..7; the rest is redirect/trap data.
#include "mad/sa/class_port_info.h"

#include <algorithm>

#include "mad/sa/field_span.h"

namespace smd::mad::sa {

namespace {
constexpr FieldSpan kCapabilityMask = bytes_at(2, 2);
constexpr FieldSpan kCapabilityMask2 = at(4, 0, 27);
constexpr FieldSpan kRespTimeValue = at(7, 3, 5);
constexpr FieldSpan kRedirectQp = bytes_at(33, 3);
constexpr FieldSpan kRedirectQKey = bytes_at(36, 4);
}  // namespace

ClassPortInfo ClassPortInfo::decode(std::span<const std::uint8_t> rec) {
  ClassPortInfo c;
  c.base_version = rec[0];
  c.class_version = rec[1];
  c.capability_mask = static_cast<std::uint16_t>(get_field(rec, kCapabilityMask));
  c.capability_mask2 = static_cast<std::uint32_t>(get_field(rec, kCapabilityMask2));
  c.resp_time_value = static_cast<std::uint8_t>(get_field(rec, kRespTimeValue));
  return c;
}

void ClassPortInfo::encode(std::span<std::uint8_t> rec) const {
  std::fill_n(rec.begin(), kSize, std::uint8_t{0});
  rec[0] = base_version;
  rec[1] = class_version;
  put_field(rec, kCapabilityMask, capability_mask);
  put_field(rec, kCapabilityMask2, capability_mask2);
  put_field(rec, kRespTimeValue, resp_time_value);
  // Not redirected: the SA answers on QP1 itself (IBA 13.5.1.2 says to report QP1 and the QP1 Q_Key).
  put_field(rec, kRedirectQp, 1);
  put_field(rec, kRedirectQKey, 0x80010000u);
}

}  // namespace smd::mad::sa
