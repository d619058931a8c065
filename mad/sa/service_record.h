// ServiceRecord (attribute 0x0031, IBA vol. 1, 15.2.5.14): a service a port offers, registered by Set and
// found by Get/GetTable, with a lease. 176 bytes. ComponentMask bits: 0 ServiceID, 1 ServiceGID,
// 2 ServiceP_Key, 3 reserved, 4 ServiceLease, 5 ServiceKey, 6 ServiceName, 7..22 ServiceData8[0..15],
// 23..30 ServiceData16[0..7], 31..34 ServiceData32[0..3], 35..36 ServiceData64[0..1].
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "mad/sa/path_record.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// ServiceRecord ComponentMask bits the SA reads itself.
namespace sr_mask {
inline constexpr std::uint64_t kServiceId = 1ull << 0;
inline constexpr std::uint64_t kServiceGid = 1ull << 1;
inline constexpr std::uint64_t kServicePKey = 1ull << 2;
inline constexpr std::uint64_t kServiceLease = 1ull << 4;
inline constexpr std::uint64_t kServiceKey = 1ull << 5;
inline constexpr std::uint64_t kServiceName = 1ull << 6;
}  // namespace sr_mask

/// ServiceLease value meaning "never expires" (IBA 15.2.5.14).
inline constexpr std::uint32_t kInfiniteLease = 0xFFFFFFFFu;

struct ServiceRecord {
  static constexpr std::size_t kSize = 176;
  std::array<std::uint8_t, kSize> bytes{};  ///< the record as sent; fields are read through the accessors

  std::uint64_t service_id() const;
  Gid service_gid() const;
  std::uint16_t service_pkey() const;
  std::uint32_t service_lease() const;  ///< seconds; kInfiniteLease = forever
  void set_service_lease(std::uint32_t seconds);
  /// ServiceName up to its first NUL (64 bytes at most, not necessarily terminated).
  std::string service_name() const;

  static ServiceRecord decode(std::span<const std::uint8_t> rec);
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kServiceRecordLayout;

}  // namespace smd::mad::sa
