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

/// ServiceRecord's fields in layout order (IBA 15.2.5.14, table 217): the enumerator's value is the field's
/// ComponentMask bit (mask_bit(f)); each ServiceData array takes one position per element.
enum class ServiceRecordField : unsigned {
  kServiceId,
  kServiceGid,
  kServicePKey,
  kReserved3,
  kServiceLease,
  kServiceKey,
  kServiceName,
  kServiceData8,
  kServiceData16 = kServiceData8 + 16,
  kServiceData32 = kServiceData16 + 8,
  kServiceData64 = kServiceData32 + 4,
  kCount = kServiceData64 + 2,
};

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
