// MultiPathRecord (attribute 0x003A, IBA vol. 1, 15.2.5.20): a GetMulti request for paths between every
// listed source GID and every listed destination GID. Bytes 0..23 carry the path properties (as in a
// PathRecord, rearranged), then SGIDCount source GIDs followed by DGIDCount destination GIDs, 16 bytes each
// (10 fit in one MAD beside the header). The SA answers with PathRecords (attribute 0x0035).
// ComponentMask bits: 0 RawTraffic, 1 reserved, 2 FlowLabel, 3 HopLimit, 4 TClass, 5 Reversible,
// 6 NumbPath, 7 P_Key, 8 QoSClass, 9 SL, 10 MTUSelector, 11 MTU, 12 RateSelector, 13 Rate,
// 14 PacketLifeTimeSelector, 15 PacketLifeTime, 16 ServiceID8MSB, 17 IndependenceSelector, 18 reserved,
// 19 SGIDCount, 20 DGIDCount, 21 ServiceID56LSB.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "mad/sa/path_record.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// MultiPathRecord's fields in layout order (IBA 15.2.5.20, table 229): the enumerator's value is the field's ComponentMask bit.
enum class MultiPathRecordField : unsigned {
  kRawTraffic,
  kReserved1,
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
  kServiceIdMsb,
  kIndependenceSelector,
  kReserved18,
  kSgidCount,
  kDgidCount,
  kServiceIdLsb,
  kCount
};

/// MultiPathRecord ComponentMask bits, one per named field of MultiPathRecordField.
namespace mpr_mask {
inline constexpr std::uint64_t kRawTraffic = mask_bit(MultiPathRecordField::kRawTraffic);
inline constexpr std::uint64_t kFlowLabel = mask_bit(MultiPathRecordField::kFlowLabel);
inline constexpr std::uint64_t kHopLimit = mask_bit(MultiPathRecordField::kHopLimit);
inline constexpr std::uint64_t kTClass = mask_bit(MultiPathRecordField::kTClass);
inline constexpr std::uint64_t kReversible = mask_bit(MultiPathRecordField::kReversible);
inline constexpr std::uint64_t kNumbPath = mask_bit(MultiPathRecordField::kNumbPath);
inline constexpr std::uint64_t kPKey = mask_bit(MultiPathRecordField::kPKey);
inline constexpr std::uint64_t kQosClass = mask_bit(MultiPathRecordField::kQosClass);
inline constexpr std::uint64_t kSl = mask_bit(MultiPathRecordField::kSl);
inline constexpr std::uint64_t kMtuSelector = mask_bit(MultiPathRecordField::kMtuSelector);
inline constexpr std::uint64_t kMtu = mask_bit(MultiPathRecordField::kMtu);
inline constexpr std::uint64_t kRateSelector = mask_bit(MultiPathRecordField::kRateSelector);
inline constexpr std::uint64_t kRate = mask_bit(MultiPathRecordField::kRate);
inline constexpr std::uint64_t kPacketLifeSelector = mask_bit(MultiPathRecordField::kPacketLifeSelector);
inline constexpr std::uint64_t kPacketLife = mask_bit(MultiPathRecordField::kPacketLife);
inline constexpr std::uint64_t kServiceIdMsb = mask_bit(MultiPathRecordField::kServiceIdMsb);
inline constexpr std::uint64_t kIndependenceSelector = mask_bit(MultiPathRecordField::kIndependenceSelector);
inline constexpr std::uint64_t kSgidCount = mask_bit(MultiPathRecordField::kSgidCount);
inline constexpr std::uint64_t kDgidCount = mask_bit(MultiPathRecordField::kDgidCount);
inline constexpr std::uint64_t kServiceIdLsb = mask_bit(MultiPathRecordField::kServiceIdLsb);
}  // namespace mpr_mask

struct MultiPathRecord {
  static constexpr std::size_t kFixedSize = 24;
  static constexpr std::size_t kMaxGids = 10;

  bool raw_traffic = false;
  std::uint32_t flow_label = 0;
  std::uint8_t hop_limit = 0;
  std::uint8_t tclass = 0;
  bool reversible = false;
  std::uint8_t numb_path = 0;
  std::uint16_t pkey = 0;
  std::uint16_t qos_class = 0;
  std::uint8_t sl = 0;
  std::uint8_t mtu_selector = 0;
  std::uint8_t mtu = 0;
  std::uint8_t rate_selector = 0;
  std::uint8_t rate = 0;
  std::uint8_t packet_life_selector = 0;
  std::uint8_t packet_life = 0;
  std::uint64_t service_id = 0;  ///< ServiceID8MSB and ServiceID56LSB put together
  std::uint8_t independence_selector = 0;
  std::vector<Gid> sgids;
  std::vector<Gid> dgids;

  /// Decode `rec` (what follows the SA header, up to 200 bytes). SGIDCount + DGIDCount GIDs are read as
  /// far as `rec` holds them; nullopt when it holds fewer than the counts say.
  static std::optional<MultiPathRecord> decode(std::span<const std::uint8_t> rec);
  /// Encode into `rec` (kFixedSize + 16 per GID bytes).
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kMultiPathRecordLayout;

}  // namespace smd::mad::sa
