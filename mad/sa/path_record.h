// PathRecord (attribute 0x0035, IBA vol. 1, 15.2.5.16): a path between two ports and its properties.
// 64 bytes. ComponentMask bits 0 and 1 are the two halves of ServiceID (IBA 1.2.1 made the old
// reserved words the ServiceID; OpenSM requires both or neither).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

using Gid = std::array<std::uint8_t, 16>;

/// GID from subnet prefix and interface ID (IBA 4.1.1), and back.
Gid make_gid(std::uint64_t prefix, std::uint64_t guid);
std::uint64_t gid_prefix(const Gid& gid);
std::uint64_t gid_guid(const Gid& gid);

/// Selector values of the MTU, Rate and PacketLifeTime fields (IBA 15.2.5.16, table 222).
namespace selector {
inline constexpr std::uint8_t kGreaterThan = 0;
inline constexpr std::uint8_t kLessThan = 1;
inline constexpr std::uint8_t kExactly = 2;
inline constexpr std::uint8_t kLargest = 3;
}  // namespace selector

/// PathRecord ComponentMask bits.
namespace pr_mask {
inline constexpr std::uint64_t kServiceIdMsb = 1ull << 0;
inline constexpr std::uint64_t kServiceIdLsb = 1ull << 1;
inline constexpr std::uint64_t kServiceId = kServiceIdMsb | kServiceIdLsb;
inline constexpr std::uint64_t kDgid = 1ull << 2;
inline constexpr std::uint64_t kSgid = 1ull << 3;
inline constexpr std::uint64_t kDlid = 1ull << 4;
inline constexpr std::uint64_t kSlid = 1ull << 5;
inline constexpr std::uint64_t kRawTraffic = 1ull << 6;
inline constexpr std::uint64_t kFlowLabel = 1ull << 8;
inline constexpr std::uint64_t kHopLimit = 1ull << 9;
inline constexpr std::uint64_t kTClass = 1ull << 10;
inline constexpr std::uint64_t kReversible = 1ull << 11;
inline constexpr std::uint64_t kNumbPath = 1ull << 12;
inline constexpr std::uint64_t kPKey = 1ull << 13;
inline constexpr std::uint64_t kQosClass = 1ull << 14;
inline constexpr std::uint64_t kSl = 1ull << 15;
inline constexpr std::uint64_t kMtuSelector = 1ull << 16;
inline constexpr std::uint64_t kMtu = 1ull << 17;
inline constexpr std::uint64_t kRateSelector = 1ull << 18;
inline constexpr std::uint64_t kRate = 1ull << 19;
inline constexpr std::uint64_t kPacketLifeSelector = 1ull << 20;
inline constexpr std::uint64_t kPacketLife = 1ull << 21;
inline constexpr std::uint64_t kPreference = 1ull << 22;
}  // namespace pr_mask

struct PathRecord {
  static constexpr std::size_t kSize = 64;

  std::uint64_t service_id = 0;
  Gid dgid{};
  Gid sgid{};
  std::uint16_t dlid = 0;
  std::uint16_t slid = 0;
  bool raw_traffic = false;
  std::uint32_t flow_label = 0;  ///< 20 bits
  std::uint8_t hop_limit = 0;
  std::uint8_t tclass = 0;
  bool reversible = false;
  std::uint8_t numb_path = 0;  ///< 7 bits
  std::uint16_t pkey = 0;
  std::uint16_t qos_class = 0;  ///< 12 bits
  std::uint8_t sl = 0;          ///< 4 bits
  std::uint8_t mtu_selector = 0;
  std::uint8_t mtu = 0;  ///< 6 bits: 1=256 .. 5=4096
  std::uint8_t rate_selector = 0;
  std::uint8_t rate = 0;  ///< 6 bits, IBA rate code, not ordered by speed (compare rates, never codes)
  std::uint8_t packet_life_selector = 0;
  std::uint8_t packet_life = 0;  ///< 6 bits: 4.096 us * 2^value
  std::uint8_t preference = 0;

  /// Decode 64 bytes; reserved bits are ignored. Never fails.
  static PathRecord decode(std::span<const std::uint8_t> rec);
  /// Write 64 bytes, reserved bits zero.
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kPathRecordLayout;

}  // namespace smd::mad::sa
