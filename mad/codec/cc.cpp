// Congestion Control MAD codecs: see cc.h. Offsets are bytes of the attribute data (IBA Annex A10.4.3,
// tables A10-7 .. A10-14).
#include "mad/codec/cc.h"

#include <algorithm>

#include "mad/codec/bits.h"

namespace smd::mad {

using namespace bits;

namespace {
constexpr std::size_t kCaEntryBase = 4, kCaEntrySize = 8;
constexpr std::size_t kCctEntryBase = 4;
constexpr std::size_t kSpElementSize = 4, kSpElements = 32;
}  // namespace

std::array<std::uint8_t, kMadSize> make_cc_request(std::uint8_t method, std::uint16_t attr, std::uint32_t mod,
                                                   std::uint64_t tid, std::uint64_t cc_key, const CcData& data) {
  std::array<std::uint8_t, kMadSize> mad{};
  std::uint8_t* m = mad.data();
  put8(m, 0, 1);  // BaseVersion
  put8(m, 1, kClassCongestionControl);
  put8(m, 2, kCcClassVersion);
  put8(m, 3, method);
  put64(m, 8, tid);
  put16(m, 16, attr);
  put32(m, 20, mod);
  put64(m, kCcKeyOffset, cc_key);
  std::copy(data.begin(), data.end(), mad.begin() + kCcDataOffset);
  return mad;
}

std::optional<CcResponse> parse_cc_response(std::span<const std::uint8_t, kMadSize> mad) {
  const std::uint8_t* m = mad.data();
  if (get8(m, 1) != kClassCongestionControl || (get8(m, 3) & 0x80) == 0) return std::nullopt;
  return CcResponse{get8(m, 3), get16(m, 4), get64(m, 8), get16(m, 16), get32(m, 20), mad.subspan(kCcDataOffset)};
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
  const std::uint8_t* d = data.data();
  s.control_map = get32(d, 0);
  std::copy_n(d + 4, 32, s.victim_mask.begin());
  std::copy_n(d + 36, 32, s.credit_mask.begin());
  s.threshold = get_bits(d, 68, 0, 4);
  s.packet_size = get8(d, 69);
  s.cs_threshold = get_bits(d, 70, 0, 4);
  s.cs_return_delay = get16(d, 72);
  s.marking_rate = get16(d, 74);
  return s;
}

void SwitchCongestionSetting::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  std::uint8_t* d = data.data();
  put32(d, 0, control_map);
  std::copy(victim_mask.begin(), victim_mask.end(), d + 4);
  std::copy(credit_mask.begin(), credit_mask.end(), d + 36);
  put_bits(d, 68, 0, 4, threshold);
  put8(d, 69, packet_size);
  put_bits(d, 70, 0, 4, cs_threshold);
  put16(d, 72, cs_return_delay);
  put16(d, 74, marking_rate);
}

SwitchPortCongestionElement SwitchPortCongestionElement::decode(std::span<const std::uint8_t> data, std::size_t index) {
  SwitchPortCongestionElement e;
  const std::size_t off = index * kSpElementSize;
  if (index >= kSpElements || data.size() < off + kSpElementSize) return e;
  const std::uint8_t* d = data.data();
  e.valid = get_bits(d, off, 0, 1);
  e.control_type = get_bits(d, off, 1, 1);
  e.threshold = get_bits(d, off, 4, 4);
  e.packet_size = get8(d, off + 1);
  e.cong_parm_marking_rate = get16(d, off + 2);
  return e;
}

void SwitchPortCongestionElement::encode(std::span<std::uint8_t> data, std::size_t index) const {
  const std::size_t off = index * kSpElementSize;
  if (index >= kSpElements || data.size() < off + kSpElementSize) return;
  std::uint8_t* d = data.data();
  put_bits(d, off, 0, 1, valid);
  put_bits(d, off, 1, 1, control_type);
  put_bits(d, off, 4, 4, threshold);
  put8(d, off + 1, packet_size);
  put16(d, off + 2, cong_parm_marking_rate);
}

CaCongestionSetting CaCongestionSetting::decode(std::span<const std::uint8_t> data) {
  CaCongestionSetting s;
  if (data.size() < kSize) return s;
  const std::uint8_t* d = data.data();
  s.port_control = get16(d, 0);
  s.control_map = get16(d, 2);
  for (std::size_t sl = 0; sl < s.entries.size(); ++sl) {
    const std::size_t off = kCaEntryBase + sl * kCaEntrySize;
    s.entries[sl] = {get16(d, off), get8(d, off + 2), get8(d, off + 3), get8(d, off + 4)};
  }
  return s;
}

void CaCongestionSetting::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  std::uint8_t* d = data.data();
  put16(d, 0, port_control);
  put16(d, 2, control_map);
  for (std::size_t sl = 0; sl < entries.size(); ++sl) {
    const std::size_t off = kCaEntryBase + sl * kCaEntrySize;
    put16(d, off, entries[sl].ccti_timer);
    put8(d, off + 2, entries[sl].ccti_increase);
    put8(d, off + 3, entries[sl].trigger_threshold);
    put8(d, off + 4, entries[sl].ccti_min);
  }
}

CongestionControlTable CongestionControlTable::decode(std::span<const std::uint8_t> data) {
  CongestionControlTable t;
  if (data.size() < kSize) return t;
  const std::uint8_t* d = data.data();
  t.ccti_limit = get16(d, 0);
  for (std::size_t i = 0; i < kEntries; ++i) {
    const std::uint16_t v = get16(d, kCctEntryBase + 2 * i);
    t.entries[i] = {static_cast<std::uint8_t>(v >> 14), static_cast<std::uint16_t>(v & 0x3FFF)};
  }
  return t;
}

void CongestionControlTable::encode(std::span<std::uint8_t> data) const {
  if (data.size() < kSize) return;
  std::uint8_t* d = data.data();
  put16(d, 0, ccti_limit);
  for (std::size_t i = 0; i < kEntries; ++i) {
    const auto v = static_cast<std::uint16_t>(((entries[i].shift & 0x3u) << 14) | (entries[i].multiplier & 0x3FFFu));
    put16(d, kCctEntryBase + 2 * i, v);
  }
}

CongestionKeyInfo CongestionKeyInfo::decode(std::span<const std::uint8_t> data) {
  CongestionKeyInfo k;
  if (data.size() < 14) return k;
  const std::uint8_t* d = data.data();
  k.cc_key = get64(d, 0);
  k.protect_bit = get_bits(d, 8, 0, 1);
  k.lease_period = get16(d, 10);
  k.violations = get16(d, 12);
  return k;
}

void CongestionKeyInfo::encode(std::span<std::uint8_t> data) const {
  if (data.size() < 14) return;
  std::uint8_t* d = data.data();
  put64(d, 0, cc_key);
  put_bits(d, 8, 0, 1, protect_bit);
  put16(d, 10, lease_period);
  put16(d, 12, violations);
}

}  // namespace smd::mad
