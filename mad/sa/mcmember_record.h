// MCMemberRecord (attribute 0x0038, IBA vol. 1, 15.2.5.17): one port's membership of one multicast group,
// and the group's properties. 53 bytes used (AttributeOffset 7 = 56 bytes). Set joins (creating the group
// when its MGID is unknown), Delete leaves, Get/GetTable list the memberships.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mad/sa/path_record.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// MCMemberRecord's fields in layout order (IBA 15.2.5.17, table 219): the enumerator's value is the field's
/// ComponentMask bit (mask_bit(f) is the bit's mask), so the fields are listed once.
enum class McMemberRecordField : unsigned {
  kMgid,
  kPortGid,
  kQKey,
  kMlid,
  kMtuSelector,
  kMtu,
  kTClass,
  kPKey,
  kRateSelector,
  kRate,
  kLifeSelector,
  kLife,
  kSl,
  kFlowLabel,
  kHopLimit,
  kScope,
  kJoinState,
  kProxyJoin,
  kCount
};

/// JoinState bits (IBA 15.2.5.17: bit 0 FullMember, 1 NonMember, 2 SendOnlyNonMember, 3 SendOnlyFullMember
/// (added in IBA 1.3)).
namespace join_state {
inline constexpr std::uint8_t kFull = 0x1;
inline constexpr std::uint8_t kNon = 0x2;
inline constexpr std::uint8_t kSendOnlyNon = 0x4;
inline constexpr std::uint8_t kSendOnlyFull = 0x8;
}  // namespace join_state

struct McMemberRecord {
  static constexpr std::size_t kSize = 53;

  Gid mgid{};
  Gid port_gid{};
  std::uint32_t q_key = 0;
  std::uint16_t mlid = 0;
  std::uint8_t mtu_selector = 0;  ///< 2 bits, selector:: values
  std::uint8_t mtu = 0;           ///< 6 bits: 1=256 .. 5=4096
  std::uint8_t tclass = 0;
  std::uint16_t pkey = 0;
  std::uint8_t rate_selector = 0;
  std::uint8_t rate = 0;  ///< 6 bits, IBA rate code (compare rates, never codes: smd/sa/rate.h)
  std::uint8_t life_selector = 0;
  std::uint8_t packet_life = 0;  ///< 6 bits: 4.096 us * 2^value
  std::uint8_t sl = 0;           ///< 4 bits
  std::uint32_t flow_label = 0;  ///< 20 bits
  std::uint8_t hop_limit = 0;
  std::uint8_t scope = 0;       ///< 4 bits: 2 link-local, 5 site, 8 organisation, 0xE global
  std::uint8_t join_state = 0;  ///< 4 bits, join_state:: bits
  bool proxy_join = false;

  /// Decode 53 bytes (`rec` at least kSize); reserved bits are ignored. Never fails.
  static McMemberRecord decode(std::span<const std::uint8_t> rec);
  /// Write kSize bytes, reserved bits zero.
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kMcMemberRecordLayout;

}  // namespace smd::mad::sa
