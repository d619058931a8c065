// Congestion Control MAD codecs: see cc.h. Offsets are bytes of the attribute data (IBA Annex A10.4.3,
// tables A10-7 .. A10-14).
#include "mad/codec/cc.h"

#include <algorithm>

#include "mad/codec/attribute_codec.h"
#include "mad/codec/bits.h"
#include "mad/codec/gmp_header.h"

namespace smd::mad {

using namespace bits;

namespace {
constexpr std::size_t kCaEntryBase = 4, kCaEntrySize = 8;
constexpr std::size_t kCctEntryBase = 4;
constexpr std::size_t kSpElementSize = 4, kSpElements = 32;

constexpr FieldTable kSwitchSettingFields{
    bind<&SwitchCongestionSetting::control_map, bytes_at(0, 4)>,
    bind<&SwitchCongestionSetting::threshold, at(68, 0, 4)>,
    bind<&SwitchCongestionSetting::packet_size, bytes_at(69, 1)>,
    bind<&SwitchCongestionSetting::cs_threshold, at(70, 0, 4)>,
    bind<&SwitchCongestionSetting::cs_return_delay, bytes_at(72, 2)>,
    bind<&SwitchCongestionSetting::marking_rate, bytes_at(74, 2)>,
};
constexpr std::size_t kVictimMask = 4, kCreditMask = 36;  // 32 bytes each, copied whole

// One element of SwitchPortCongestionSetting's block, at the element's own offset.
constexpr FieldTable kSpElementFields{
    bind<&SwitchPortCongestionElement::valid, at(0, 0, 1)>,
    bind<&SwitchPortCongestionElement::control_type, at(0, 1, 1)>,
    bind<&SwitchPortCongestionElement::threshold, at(0, 4, 4)>,
    bind<&SwitchPortCongestionElement::packet_size, bytes_at(1, 1)>,
    bind<&SwitchPortCongestionElement::cong_parm_marking_rate, bytes_at(2, 2)>,
};

constexpr FieldTable kCaSettingFields{
    bind<&CaCongestionSetting::port_control, bytes_at(0, 2)>,
    bind<&CaCongestionSetting::control_map, bytes_at(2, 2)>,
};
// One SL's entry of CACongestionSetting, at the entry's own offset.
constexpr FieldTable kCaEntryFields{
    bind<&CaCongestionEntry::ccti_timer, bytes_at(0, 2)>,
    bind<&CaCongestionEntry::ccti_increase, bytes_at(2, 1)>,
    bind<&CaCongestionEntry::trigger_threshold, bytes_at(3, 1)>,
    bind<&CaCongestionEntry::ccti_min, bytes_at(4, 1)>,
};

// One 16-bit CCT entry, at the entry's own offset.
constexpr FieldTable kCctEntryFields{
    bind<&CctEntry::shift, at(0, 0, 2)>,
    bind<&CctEntry::multiplier, at(0, 2, 14)>,
};

constexpr FieldTable kKeyInfoFields{
    bind<&CongestionKeyInfo::cc_key, bytes_at(0, 8)>,
    bind<&CongestionKeyInfo::protect_bit, at(8, 0, 1)>,
    bind<&CongestionKeyInfo::lease_period, bytes_at(10, 2)>,
    bind<&CongestionKeyInfo::violations, bytes_at(12, 2)>,
};
constexpr std::size_t kKeyInfoSize = 14;
}  // namespace

std::array<std::uint8_t, kMadSize> make_cc_request(std::uint8_t method, std::uint16_t attr, std::uint32_t mod,
                                                   std::uint64_t tid, std::uint64_t cc_key, const CcData& data) {
  std::array<std::uint8_t, kMadSize> mad = make_gmp_request({.mgmt_class = kClassCongestionControl,
                                                             .class_version = kCcClassVersion,
                                                             .method = method,
                                                             .tid = tid,
                                                             .attr_id = attr,
                                                             .attr_mod = mod});
  put64(mad.data(), kCcKeyOffset, cc_key);
  std::copy(data.begin(), data.end(), mad.begin() + kCcDataOffset);
  return mad;
}

std::optional<CcResponse> parse_cc_response(std::span<const std::uint8_t, kMadSize> mad) {
  const std::optional<GmpHeader> h = read_gmp_response(mad, kClassCongestionControl);
  if (!h) return std::nullopt;
  return CcResponse{h->method, h->status, h->tid, h->attr_id, h->attr_mod, mad.subspan(kCcDataOffset)};
}

CongestionInfo CongestionInfo::decode(std::span<const std::uint8_t> data) {
  CongestionInfo c;
  if (data.size() < 3) return c;
  c.congestion_info = get16(data.data(), 0);
  c.control_table_cap = get8(data.data(), 2);
  return c;
}

SwitchCongestionSetting SwitchCongestionSetting::decode(std::span<const std::uint8_t> data) {
  SwitchCongestionSetting s;
  if (data.size() < kSize) return s;
  decode_fields(data.data(), s, kSwitchSettingFields);
  std::copy_n(data.begin() + kVictimMask, s.victim_mask.size(), s.victim_mask.begin());
  std::copy_n(data.begin() + kCreditMask, s.credit_mask.size(), s.credit_mask.begin());
  return s;
}

void SwitchCongestionSetting::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  encode_fields(data.data(), *this, kSwitchSettingFields);
  std::copy(victim_mask.begin(), victim_mask.end(), data.begin() + kVictimMask);
  std::copy(credit_mask.begin(), credit_mask.end(), data.begin() + kCreditMask);
}

SwitchPortCongestionElement SwitchPortCongestionElement::decode(std::span<const std::uint8_t> data, std::size_t index) {
  SwitchPortCongestionElement e;
  const std::size_t off = index * kSpElementSize;
  if (index >= kSpElements || data.size() < off + kSpElementSize) return e;
  decode_fields(data.data() + off, e, kSpElementFields);
  return e;
}

void SwitchPortCongestionElement::encode(std::span<std::uint8_t> data, std::size_t index) const {
  const std::size_t off = index * kSpElementSize;
  if (index >= kSpElements || data.size() < off + kSpElementSize) return;
  encode_fields(data.data() + off, *this, kSpElementFields);
}

CaCongestionSetting CaCongestionSetting::decode(std::span<const std::uint8_t> data) {
  CaCongestionSetting s;
  if (data.size() < kSize) return s;
  decode_fields(data.data(), s, kCaSettingFields);
  for (std::size_t sl = 0; sl < s.entries.size(); ++sl) {
    decode_fields(data.data() + kCaEntryBase + sl * kCaEntrySize, s.entries[sl], kCaEntryFields);
  }
  return s;
}

void CaCongestionSetting::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  encode_fields(data.data(), *this, kCaSettingFields);
  for (std::size_t sl = 0; sl < entries.size(); ++sl) {
    encode_fields(data.data() + kCaEntryBase + sl * kCaEntrySize, entries[sl], kCaEntryFields);
  }
}

CongestionControlTable CongestionControlTable::decode(std::span<const std::uint8_t> data) {
  CongestionControlTable t;
  if (data.size() < kSize) return t;
  t.ccti_limit = get16(data.data(), 0);
  for (std::size_t i = 0; i < kEntries; ++i)
    decode_fields(data.data() + kCctEntryBase + 2 * i, t.entries[i], kCctEntryFields);
  return t;
}

void CongestionControlTable::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  put16(data.data(), 0, ccti_limit);
  for (std::size_t i = 0; i < kEntries; ++i)
    encode_fields(data.data() + kCctEntryBase + 2 * i, entries[i], kCctEntryFields);
}

CongestionKeyInfo CongestionKeyInfo::decode(std::span<const std::uint8_t> data) {
  return decode_sized<CongestionKeyInfo>(data, kKeyInfoSize, kKeyInfoFields);
}

void CongestionKeyInfo::encode(std::span<std::uint8_t> data) const {
  encode_sized(*this, data, kKeyInfoSize, kKeyInfoFields);
}

}  // namespace smd::mad
