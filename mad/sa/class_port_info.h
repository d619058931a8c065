// ClassPortInfo (attribute 0x0001, IBA vol. 1, 13.4.8.1) as the SA answers it: what the SA supports and
// how long to wait for it. 72 bytes; the redirect and trap fields stay zero (the SA neither redirects nor
// sends its own traps through this attribute).
#pragma once

#include <cstdint>
#include <span>

namespace smd::mad::sa {

/// SA ClassPortInfo:CapabilityMask bits (IBA 15.2.5.1, table 206) and CapabilityMask2 bits (table 207).
namespace cpi_cap {
inline constexpr std::uint16_t kIsSubnetGetSetNoticeSupported = 1u << 1;  ///< InformInfo and Reports
inline constexpr std::uint16_t kIsUdMulticastSupported = 1u << 9;
inline constexpr std::uint16_t kIsMultiPathSupported = 1u << 10;
inline constexpr std::uint16_t kIsPortInfoCapMaskMatchSupported = 1u << 13;  ///< PortInfoRecord Options
inline constexpr std::uint32_t kIsFullPortInfoRecordSupported = 1u << 6;     ///< CapabilityMask2 from here
inline constexpr std::uint32_t kIsExtendedSpeedsSupported = 1u << 7;
inline constexpr std::uint32_t kIsPortInfoCapMask2MatchSupported = 1u << 10;
inline constexpr std::uint32_t kIsSendOnlyFullMemberSupported = 1u << 12;
}  // namespace cpi_cap

struct ClassPortInfo {
  static constexpr std::size_t kSize = 72;
  std::uint8_t base_version = 1;
  std::uint8_t class_version = 2;
  std::uint16_t capability_mask = 0;
  std::uint32_t capability_mask2 = 0;  ///< 27 bits
  std::uint8_t resp_time_value = 0;    ///< 5 bits: 4.096 us * 2^value

  static ClassPortInfo decode(std::span<const std::uint8_t> rec);
  void encode(std::span<std::uint8_t> rec) const;
};

}  // namespace smd::mad::sa
