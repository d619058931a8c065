// InformInfo (attribute 0x0003, IBA vol. 1, 13.4.8.3 and 15.2.5.20 for the SA's use) — a subscription to
// traps forwarded as Reports — and InformInfoRecord (0x00F3, 15.2.5.12), the SA's record of one.
// InformInfo, 36 bytes: GID 0, LIDRangeBegin 16, LIDRangeEnd 18, reserved 20, IsGeneric 22, Subscribe 23,
// Type 24, TrapNumber (generic) / DeviceID 26, QPN 28 (24 bits), RespTimeValue 31 (bits 4:0),
// ProducerType (generic) / VendorID 33 (24 bits).
// InformInfoRecord, 64 bytes: SubscriberGID 0, Enum 16, reserved 18, InformInfo 24, reserved 60.
#pragma once

#include <cstdint>
#include <span>

#include "mad/sa/path_record.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// Wildcards of an InformInfo (IBA 13.4.8.3).
inline constexpr std::uint16_t kAllLids = 0xFFFF;         ///< LIDRangeBegin: every issuer
inline constexpr std::uint16_t kAllTraps = 0xFFFF;        ///< TrapNumber: every trap
inline constexpr std::uint16_t kAllTypes = 0xFFFF;        ///< Type
inline constexpr std::uint32_t kAllProducers = 0xFFFFFF;  ///< ProducerType

struct InformInfo {
  static constexpr std::size_t kSize = 36;
  Gid gid{};  ///< a single issuer's GID, or zero for the LID range
  std::uint16_t lid_range_begin = 0;
  std::uint16_t lid_range_end = 0;
  bool is_generic = true;
  bool subscribe = true;
  std::uint16_t type = 0;
  std::uint16_t trap_number = 0;  ///< generic: TrapNumber; vendor: DeviceID
  std::uint32_t qpn = 0;          ///< 24 bits: where Reports go on the subscriber
  std::uint8_t resp_time_value = 0;
  std::uint32_t producer_type = 0;  ///< 24 bits: generic ProducerType (1 CA 2 switch 3 router 4 SM), or VendorID

  static InformInfo decode(std::span<const std::uint8_t> rec);
  void encode(std::span<std::uint8_t> rec) const;
};

struct InformInfoRecord {
  static constexpr std::size_t kSize = 64;
  Gid subscriber_gid{};
  std::uint16_t subscriber_enum = 0;
  InformInfo inform;

  static InformInfoRecord decode(std::span<const std::uint8_t> rec);
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kInformInfoLayout;
extern const RecordLayout kInformInfoRecordLayout;

}  // namespace smd::mad::sa
