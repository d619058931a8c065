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

/// PathRecord's fields in layout order (IBA 15.2.5.16, table 221): the enumerator's value is the field's ComponentMask bit.
enum class PathRecordField : unsigned {
  kServiceIdMsb,
  kServiceIdLsb,
  kDgid,
  kSgid,
  kDlid,
  kSlid,
  kRawTraffic,
  kReserved7,
  kFlowLabel,
  kHopLimit,
  kTClass,
  kReversible,
  kNumbPath,
  kPKey,
  kQosClass,
  kSl,
  kMtuSelector,
  kMtu,
  kRateSelector,
  kRate,
  kPacketLifeSelector,
  kPacketLife,
  kPreference,
  kReserved23,
  kCount
};

/// PathRecord ComponentMask bits, one per named field of PathRecordField.
namespace pr_mask {
inline constexpr std::uint64_t kServiceIdMsb = mask_bit(PathRecordField::kServiceIdMsb);
inline constexpr std::uint64_t kServiceIdLsb = mask_bit(PathRecordField::kServiceIdLsb);
inline constexpr std::uint64_t kDgid = mask_bit(PathRecordField::kDgid);
inline constexpr std::uint64_t kSgid = mask_bit(PathRecordField::kSgid);
inline constexpr std::uint64_t kDlid = mask_bit(PathRecordField::kDlid);
inline constexpr std::uint64_t kSlid = mask_bit(PathRecordField::kSlid);
inline constexpr std::uint64_t kRawTraffic = mask_bit(PathRecordField::kRawTraffic);
inline constexpr std::uint64_t kFlowLabel = mask_bit(PathRecordField::kFlowLabel);
inline constexpr std::uint64_t kHopLimit = mask_bit(PathRecordField::kHopLimit);
inline constexpr std::uint64_t kTClass = mask_bit(PathRecordField::kTClass);
inline constexpr std::uint64_t kReversible = mask_bit(PathRecordField::kReversible);
inline constexpr std::uint64_t kNumbPath = mask_bit(PathRecordField::kNumbPath);
inline constexpr std::uint64_t kPKey = mask_bit(PathRecordField::kPKey);
inline constexpr std::uint64_t kQosClass = mask_bit(PathRecordField::kQosClass);
inline constexpr std::uint64_t kSl = mask_bit(PathRecordField::kSl);
inline constexpr std::uint64_t kMtuSelector = mask_bit(PathRecordField::kMtuSelector);
inline constexpr std::uint64_t kMtu = mask_bit(PathRecordField::kMtu);
inline constexpr std::uint64_t kRateSelector = mask_bit(PathRecordField::kRateSelector);
inline constexpr std::uint64_t kRate = mask_bit(PathRecordField::kRate);
inline constexpr std::uint64_t kPacketLifeSelector = mask_bit(PathRecordField::kPacketLifeSelector);
inline constexpr std::uint64_t kPacketLife = mask_bit(PathRecordField::kPacketLife);
inline constexpr std::uint64_t kPreference = mask_bit(PathRecordField::kPreference);
inline constexpr std::uint64_t kServiceId = kServiceIdMsb | kServiceIdLsb;
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
