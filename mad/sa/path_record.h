// PathRecord (attribute 0x0035, IBA vol. 1, 15.2.5.16): a path between two ports and its properties.
// 64 bytes. ComponentMask bits 0 and 1 are the two halves of ServiceID (IBA 1.2.1 made the old
// reserved words the ServiceID; OpenSM requires both or neither). The properties (bytes 44..56, bits
// 6..21) are the run a MultiPathRecord carries too (path_properties.h).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mad/sa/path_properties.h"
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
  kProperties,  ///< the path properties' PathPropertyField::kCount positions start here
  kPreference = kProperties + field_count<PathPropertyField>(),
  kReserved23,
  kCount
};

/// PathRecord ComponentMask bits of the path properties (the named fields' are mask_bit(PathRecordField)),
/// and ServiceID's two halves together.
namespace pr_mask {
/// Path property `f`'s bit in a PathRecord.
constexpr std::uint64_t property(PathPropertyField f) { return property_bit(PathRecordField::kProperties, f); }
inline constexpr std::uint64_t kRawTraffic = property(PathPropertyField::kRawTraffic);
inline constexpr std::uint64_t kFlowLabel = property(PathPropertyField::kFlowLabel);
inline constexpr std::uint64_t kHopLimit = property(PathPropertyField::kHopLimit);
inline constexpr std::uint64_t kTClass = property(PathPropertyField::kTClass);
inline constexpr std::uint64_t kReversible = property(PathPropertyField::kReversible);
inline constexpr std::uint64_t kNumbPath = property(PathPropertyField::kNumbPath);
inline constexpr std::uint64_t kPKey = property(PathPropertyField::kPKey);
inline constexpr std::uint64_t kQosClass = property(PathPropertyField::kQosClass);
inline constexpr std::uint64_t kSl = property(PathPropertyField::kSl);
inline constexpr std::uint64_t kMtuSelector = property(PathPropertyField::kMtuSelector);
inline constexpr std::uint64_t kMtu = property(PathPropertyField::kMtu);
inline constexpr std::uint64_t kRateSelector = property(PathPropertyField::kRateSelector);
inline constexpr std::uint64_t kRate = property(PathPropertyField::kRate);
inline constexpr std::uint64_t kPacketLifeSelector = property(PathPropertyField::kPacketLifeSelector);
inline constexpr std::uint64_t kPacketLife = property(PathPropertyField::kPacketLife);
inline constexpr std::uint64_t kServiceId =
    mask_bit(PathRecordField::kServiceIdMsb) | mask_bit(PathRecordField::kServiceIdLsb);
}  // namespace pr_mask

/// A PathRecord: the path properties (its base) and the path's ends.
struct PathRecord : PathProperties {
  static constexpr std::size_t kSize = 64;

  std::uint64_t service_id = 0;
  Gid dgid{};
  Gid sgid{};
  std::uint16_t dlid = 0;
  std::uint16_t slid = 0;
  std::uint8_t preference = 0;

  /// Decode 64 bytes; reserved bits are ignored. Never fails.
  static PathRecord decode(std::span<const std::uint8_t> rec);
  /// Write 64 bytes, reserved bits zero.
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kPathRecordLayout;

}  // namespace smd::mad::sa
