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

namespace mpr_mask {
inline constexpr std::uint64_t kRawTraffic = 1ull << 0;
inline constexpr std::uint64_t kFlowLabel = 1ull << 2;
inline constexpr std::uint64_t kHopLimit = 1ull << 3;
inline constexpr std::uint64_t kTClass = 1ull << 4;
inline constexpr std::uint64_t kReversible = 1ull << 5;
inline constexpr std::uint64_t kNumbPath = 1ull << 6;
inline constexpr std::uint64_t kPKey = 1ull << 7;
inline constexpr std::uint64_t kQosClass = 1ull << 8;
inline constexpr std::uint64_t kSl = 1ull << 9;
inline constexpr std::uint64_t kMtuSelector = 1ull << 10;
inline constexpr std::uint64_t kMtu = 1ull << 11;
inline constexpr std::uint64_t kRateSelector = 1ull << 12;
inline constexpr std::uint64_t kRate = 1ull << 13;
inline constexpr std::uint64_t kPacketLifeSelector = 1ull << 14;
inline constexpr std::uint64_t kPacketLife = 1ull << 15;
inline constexpr std::uint64_t kServiceIdMsb = 1ull << 16;
inline constexpr std::uint64_t kSgidCount = 1ull << 19;
inline constexpr std::uint64_t kDgidCount = 1ull << 20;
inline constexpr std::uint64_t kServiceIdLsb = 1ull << 21;
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
