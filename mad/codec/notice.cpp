// Notice codec: offsets from IBA vol. 1, table 142 (13.4.8.2); trap DataDetails from table 144
// (trap 128: LIDADDR at 0; trap 144: LIDADDR at 2, OtherLocalChanges byte 5 bit 0, CapabilityMask at 6,
// ChangeFlags at 10: table 147).
#include "mad/codec/notice.h"

#include <algorithm>

#include "mad/codec/bits.h"
#include "mad/codec/field_table.h"

namespace smd::mad {

namespace {
constexpr std::size_t kDataDetails = 10;
constexpr std::size_t kIssuerGid = 64;
// Notice (table 142): every byte is a field, so encode writes all of the first 64 bytes.
constexpr FieldTable kHead{
    bind<&Notice::is_generic, at(0, 0, 1)>,       bind<&Notice::type, at(0, 1, 7)>,
    bind<&Notice::producer_type, bytes_at(1, 3)>, bind<&Notice::trap_number, bytes_at(4, 2)>,
    bind<&Notice::issuer_lid, bytes_at(6, 2)>,    bind<&Notice::notice_toggle, at(8, 0, 1)>,
    bind<&Notice::notice_count, at(8, 1, 15)>,
};

namespace details {
// Trap 128: LIDADDR.
constexpr std::size_t kTrap128Lid = 0;
// Trap 144: LIDADDR, OtherLocalChanges (bit 0 of the byte), CapabilityMask, ChangeFlags.
constexpr std::size_t kTrap144Lid = 2, kTrap144LocalChanges = 5, kTrap144CapabilityMask = 6, kTrap144ChangeFlags = 10;
// Traps 129-131: LIDADDR after 16 reserved bits, PORTNO.
constexpr std::size_t kPortTrapLid = 2, kPortTrapPort = 4;
}  // namespace details

Notice decode_head(const std::uint8_t* p) {
  Notice n;
  decode_fields(p, n, kHead);
  std::copy_n(p + kDataDetails, kNoticeDataDetailsSize, n.data_details.begin());
  return n;
}

void encode_head(const Notice& n, std::uint8_t* p) {
  encode_fields(p, n, kHead);
  std::copy(n.data_details.begin(), n.data_details.end(), p + kDataDetails);
}
}  // namespace

Notice Notice::decode(const SmpData& data) { return decode_head(data.data()); }

void Notice::encode(SmpData& data) const { encode_head(*this, data.data()); }

Notice Notice::decode_full(std::span<const std::uint8_t, kNoticeFullSize> data) {
  Notice n = decode_head(data.data());
  std::copy_n(data.data() + kIssuerGid, n.issuer_gid.size(), n.issuer_gid.begin());
  return n;
}

void Notice::encode_full(std::span<std::uint8_t, kNoticeFullSize> data) const {
  encode_head(*this, data.data());
  std::copy(issuer_gid.begin(), issuer_gid.end(), data.data() + kIssuerGid);
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

bool Notice::trap144_other_local_changes() const { return (data_details[details::kTrap144LocalChanges] & 0x01) != 0; }

std::uint16_t Notice::trap144_change_flags() const { return bits::get16(data_details.data(), details::kTrap144ChangeFlags); }

void Notice::set_trap144_changes(bool other_local_changes, std::uint16_t change_flags) {
  auto& byte = data_details[details::kTrap144LocalChanges];
  byte = static_cast<std::uint8_t>((byte & 0xFE) | (other_local_changes ? 0x01 : 0x00));
  bits::put16(data_details.data(), details::kTrap144ChangeFlags, change_flags);
}

std::uint16_t Notice::port_trap_lid() const { return bits::get16(data_details.data(), details::kPortTrapLid); }

std::uint8_t Notice::port_trap_port() const { return data_details[details::kPortTrapPort]; }

void Notice::set_port_trap(std::uint16_t lid, std::uint8_t port) {
  bits::put16(data_details.data(), details::kPortTrapLid, lid);
  data_details[details::kPortTrapPort] = port;
}

}  // namespace smd::mad
