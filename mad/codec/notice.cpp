// Notice codec: offsets from IBA vol. 1, table 142 (13.4.8.2); trap DataDetails from table 144
// (trap 128: LIDADDR at 0; trap 144: LIDADDR at 2, CapabilityMask at 6).
#include "mad/codec/notice.h"

#include <algorithm>

#include "mad/codec/bits.h"

namespace smd::mad {

namespace {
namespace off {
constexpr std::size_t kGenericType = 0;  // IsGeneric bit 7, Type bits 6..0
constexpr std::size_t kProducerType = 1;
constexpr std::size_t kTrapNumber = 4;
constexpr std::size_t kIssuerLid = 6;
constexpr std::size_t kToggleCount = 8;  // NoticeToggle bit 15, NoticeCount bits 14..0
constexpr std::size_t kDataDetails = 10;
constexpr std::size_t kIssuerGid = 64;
}  // namespace off

namespace details {
constexpr std::size_t kTrap128Lid = 0;
constexpr std::size_t kTrap144Lid = 2;
constexpr std::size_t kTrap144CapabilityMask = 6;
constexpr std::size_t kPortTrapLid = 2;   // after 16 reserved bits
constexpr std::size_t kPortTrapPort = 4;
}  // namespace details

Notice decode_head(const std::uint8_t* p) {
  Notice n;
  n.is_generic = bits::get_bits(p, off::kGenericType, 0, 1) != 0;
  n.type = bits::get_bits(p, off::kGenericType, 1, 7);
  n.producer_type = bits::get24(p, off::kProducerType);
  n.trap_number = bits::get16(p, off::kTrapNumber);
  n.issuer_lid = bits::get16(p, off::kIssuerLid);
  const std::uint16_t tc = bits::get16(p, off::kToggleCount);
  n.notice_toggle = (tc & 0x8000) != 0;
  n.notice_count = tc & 0x7FFF;
  std::copy_n(p + off::kDataDetails, kNoticeDataDetailsSize, n.data_details.begin());
  return n;
}

void encode_head(const Notice& n, std::uint8_t* p) {
  bits::put_bits(p, off::kGenericType, 0, 1, n.is_generic ? 1 : 0);
  bits::put_bits(p, off::kGenericType, 1, 7, n.type);
  bits::put24(p, off::kProducerType, n.producer_type);
  bits::put16(p, off::kTrapNumber, n.trap_number);
  bits::put16(p, off::kIssuerLid, n.issuer_lid);
  bits::put16(p, off::kToggleCount,
              static_cast<std::uint16_t>((n.notice_toggle ? 0x8000 : 0) | (n.notice_count & 0x7FFF)));
  std::copy(n.data_details.begin(), n.data_details.end(), p + off::kDataDetails);
}
}  // namespace

Notice Notice::decode(const SmpData& data) { return decode_head(data.data()); }

void Notice::encode(SmpData& data) const { encode_head(*this, data.data()); }

Notice Notice::decode_full(std::span<const std::uint8_t, kNoticeFullSize> data) {
  Notice n = decode_head(data.data());
  std::copy_n(data.data() + off::kIssuerGid, n.issuer_gid.size(), n.issuer_gid.begin());
  return n;
}

void Notice::encode_full(std::span<std::uint8_t, kNoticeFullSize> data) const {
  encode_head(*this, data.data());
  std::copy(issuer_gid.begin(), issuer_gid.end(), data.data() + off::kIssuerGid);
}

std::uint16_t Notice::trap128_lid() const { return bits::get16(data_details.data(), details::kTrap128Lid); }

void Notice::set_trap128_lid(std::uint16_t lid) { bits::put16(data_details.data(), details::kTrap128Lid, lid); }

std::uint16_t Notice::trap144_lid() const { return bits::get16(data_details.data(), details::kTrap144Lid); }

std::uint32_t Notice::trap144_capability_mask() const {
  return bits::get32(data_details.data(), details::kTrap144CapabilityMask);
}

void Notice::set_trap144(std::uint16_t lid, std::uint32_t capability_mask) {
  bits::put16(data_details.data(), details::kTrap144Lid, lid);
  bits::put32(data_details.data(), details::kTrap144CapabilityMask, capability_mask);
}

std::uint16_t Notice::port_trap_lid() const { return bits::get16(data_details.data(), details::kPortTrapLid); }

std::uint8_t Notice::port_trap_port() const { return data_details[details::kPortTrapPort]; }

void Notice::set_port_trap(std::uint16_t lid, std::uint8_t port) {
  bits::put16(data_details.data(), details::kPortTrapLid, lid);
  data_details[details::kPortTrapPort] = port;
}

}  // namespace smd::mad
