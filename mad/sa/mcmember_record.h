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

/// MCMemberRecord ComponentMask bits (IBA 15.2.5.17, table 219): bit n selects field n of the layout.
namespace mcm_mask {
inline constexpr std::uint64_t kMgid = 1ull << 0;
inline constexpr std::uint64_t kPortGid = 1ull << 1;
inline constexpr std::uint64_t kQKey = 1ull << 2;
inline constexpr std::uint64_t kMlid = 1ull << 3;
inline constexpr std::uint64_t kMtuSelector = 1ull << 4;
inline constexpr std::uint64_t kMtu = 1ull << 5;
inline constexpr std::uint64_t kTClass = 1ull << 6;
inline constexpr std::uint64_t kPKey = 1ull << 7;
inline constexpr std::uint64_t kRateSelector = 1ull << 8;
inline constexpr std::uint64_t kRate = 1ull << 9;
inline constexpr std::uint64_t kLifeSelector = 1ull << 10;
inline constexpr std::uint64_t kLife = 1ull << 11;
inline constexpr std::uint64_t kSl = 1ull << 12;
inline constexpr std::uint64_t kFlowLabel = 1ull << 13;
inline constexpr std::uint64_t kHopLimit = 1ull << 14;
inline constexpr std::uint64_t kScope = 1ull << 15;
inline constexpr std::uint64_t kJoinState = 1ull << 16;
inline constexpr std::uint64_t kProxyJoin = 1ull << 17;
}  // namespace mcm_mask

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
