// MultiPathRecord (attribute 0x003A, IBA vol. 1, 15.2.5.20): a GetMulti request for paths between every
// listed source GID and every listed destination GID. Bytes 0..12 carry the path properties (the run a
// PathRecord carries at byte 44, path_properties.h), 13..23 the ServiceID, IndependenceSelector and the GID
// counts, then SGIDCount source GIDs followed by DGIDCount destination GIDs, 16 bytes each
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

/// MultiPathRecord's fields in layout order (IBA 15.2.5.20, table 229): the enumerator's value is the field's
/// ComponentMask bit (mask_bit(f)); the path properties take bits 0..15 (property_bits(kProperties)), the
/// same run a PathRecord has at bits 6..21.
enum class MultiPathRecordField : unsigned {
  kProperties,  ///< the path properties' PathPropertyField::kCount positions start here
  kServiceIdMsb = kProperties + field_count<PathPropertyField>(),
  kIndependenceSelector,
  kReserved18,
  kSgidCount,
  kDgidCount,
  kServiceIdLsb,
  kCount
};

/// A MultiPathRecord: the path properties (its base) for every pair of the listed GIDs.
struct MultiPathRecord : PathProperties {
  static constexpr std::size_t kFixedSize = 24;
  static constexpr std::size_t kMaxGids = 10;

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
