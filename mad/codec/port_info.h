// PortInfo attribute (0x0015, IBA vol. 1, 14.2.5.6): one port's addressing, link and error state.
// Attribute modifier = port number. A Set is read-modify-write of the whole 64 bytes, so every field
// (and, through `raw`, every reserved bit) must survive decode() then encode() unchanged.
#pragma once

#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

/// PortInfo:PortPhysicalState value of a trained link.
inline constexpr std::uint8_t kPhysStateLinkUp = 5;

/// PortInfo:CapabilityMask bits the SM reads or sets (IBA table 150).
namespace capmask {
inline constexpr std::uint32_t kIsSm = 1u << 1;
inline constexpr std::uint32_t kIsNoticeSupported = 1u << 2;
inline constexpr std::uint32_t kIsTrapSupported = 1u << 3;
inline constexpr std::uint32_t kIsSmDisabled = 1u << 10;
/// LinkSpeedExtActive/Supported/Enabled are valid (IBA 14.2.5.6).
inline constexpr std::uint32_t kIsExtendedSpeedsSupported = 1u << 14;
/// CapabilityMask2 is valid.
inline constexpr std::uint32_t kIsCapabilityMask2Supported = 1u << 15;
inline constexpr std::uint32_t kIsClientReregistrationSupported = 1u << 25;
/// Set on a switch's port 0: SwitchInfo:MulticastFDBTop is honoured (IBA 14.2.5.4).
inline constexpr std::uint32_t kIsMulticastFdbTopSupported = 1u << 30;
}  // namespace capmask

/// PortInfo:CapabilityMask2 bits that name link widths and speeds (IBA 1.4-1.7 table 150 additions).
namespace capmask2 {
inline constexpr std::uint16_t kIsLinkWidth2xSupported = 1u << 4;
inline constexpr std::uint16_t kIsLinkSpeedHdrSupported = 1u << 5;
inline constexpr std::uint16_t kIsLinkSpeedNdrSupported = 1u << 10;
/// LinkSpeedExt2Active/Supported/Enabled (XDR) are valid.
inline constexpr std::uint16_t kIsExtendedSpeeds2Supported = 1u << 11;
inline constexpr std::uint16_t kIsLinkSpeedXdrSupported = 1u << 12;
}  // namespace capmask2

/// PortInfo attribute modifier bit 31, SMSupportsExtendedSpeeds (IBA 1.3+ 14.2.5.6): an SMA whose port has
/// IsExtendedSpeedsSupported reports LinkSpeedExt* (and XDR's LinkSpeedExt2*) and takes LinkSpeedExtEnabled
/// only when the SMP carries it. An older SMA may take the whole modifier as the port number, so the bit is
/// sent only where the CapabilityMask advertises extended speeds.
inline constexpr std::uint32_t kSmSupportsExtendedSpeeds = 1u << 31;

/// The PortInfo attribute modifier for `port` (bits 0-7), with bit 31 when `extended_speeds`.
constexpr std::uint32_t port_info_mod(std::uint8_t port, bool extended_speeds) {
  return port | (extended_speeds ? kSmSupportsExtendedSpeeds : 0u);
}
/// The port a PortInfo attribute modifier names (bits 8-30 are reserved, bit 31 is not a port bit).
constexpr std::uint8_t port_of_port_info_mod(std::uint32_t mod) { return static_cast<std::uint8_t>(mod & 0xffu); }

struct PortInfo {
  std::uint64_t m_key = 0;
  std::uint64_t gid_prefix = 0;       ///< subnet prefix, default 0xFE80000000000000
  std::uint16_t lid = 0;              ///< base LID
  std::uint16_t master_sm_lid = 0;    ///< MasterSMLID: where traps go
  std::uint32_t capability_mask = 0;  ///< see capmask::
  std::uint16_t diag_code = 0;
  std::uint16_t m_key_lease_period = 0;  ///< seconds
  std::uint8_t local_port_num = 0;       ///< port the SMP entered by
  std::uint8_t link_width_enabled = 0;   ///< width masks: 1=1x 2=4x 4=8x 8=12x 16=2x
  std::uint8_t link_width_supported = 0;
  std::uint8_t link_width_active = 0;
  std::uint8_t link_speed_supported = 0;     ///< 4 bits: 1=SDR 2=DDR 4=QDR
  std::uint8_t port_state = 0;               ///< 4 bits: 0 NOP 1 Down 2 Init 3 Armed 4 Active
  std::uint8_t port_physical_state = 0;      ///< 4 bits: 5 = LinkUp
  std::uint8_t link_down_default_state = 0;  ///< 4 bits
  std::uint8_t m_key_protect_bits = 0;       ///< 2 bits
  std::uint8_t lmc = 0;                      ///< 3 bits: the port owns 2^LMC LIDs
  std::uint8_t link_speed_active = 0;        ///< 4 bits
  std::uint8_t link_speed_enabled = 0;       ///< 4 bits
  std::uint8_t neighbor_mtu = 0;             ///< 4 bits: 1=256 .. 5=4096
  std::uint8_t master_sm_sl = 0;             ///< 4 bits
  std::uint8_t vl_cap = 0;                   ///< 4 bits
  std::uint8_t init_type = 0;                ///< 4 bits
  std::uint8_t vl_high_limit = 0;
  std::uint8_t vl_arbitration_high_cap = 0;
  std::uint8_t vl_arbitration_low_cap = 0;
  std::uint8_t init_type_reply = 0;  ///< 4 bits
  std::uint8_t mtu_cap = 0;          ///< 4 bits
  std::uint8_t vl_stall_count = 0;   ///< 3 bits
  std::uint8_t hoq_life = 0;         ///< 5 bits
  std::uint8_t operational_vls = 0;  ///< 4 bits
  bool partition_enforcement_inbound = false;
  bool partition_enforcement_outbound = false;
  bool filter_raw_inbound = false;
  bool filter_raw_outbound = false;
  std::uint16_t m_key_violations = 0;
  std::uint16_t p_key_violations = 0;
  std::uint16_t q_key_violations = 0;
  std::uint8_t guid_cap = 0;
  bool client_reregister = false;
  std::uint8_t multicast_pkey_trap_suppression_enabled = 0;  ///< 2 bits
  std::uint8_t subnet_timeout = 0;                           ///< 5 bits: 4.096us * 2^value
  std::uint8_t resp_time_value = 0;                          ///< 5 bits
  std::uint8_t local_phy_errors = 0;                         ///< 4 bits
  std::uint8_t overrun_errors = 0;                           ///< 4 bits
  std::uint16_t max_credit_hint = 0;
  std::uint32_t link_round_trip_latency = 0;  ///< 24 bits
  std::uint16_t capability_mask2 = 0;
  std::uint8_t link_speed_ext_active = 0;     ///< 4 bits: 1=FDR 2=EDR 4=HDR 8=NDR, 0 = base speed
  std::uint8_t link_speed_ext_supported = 0;  ///< 4 bits, a mask of the same
  std::uint8_t link_speed_ext_enabled = 0;    ///< 5 bits: a mask as Supported, 30 = off, 31 = all supported
  std::uint8_t link_speed_ext2_active = 0;     ///< 2 bits: 1=XDR (valid with capmask2 IsExtendedSpeeds2Supported)
  std::uint8_t link_speed_ext2_supported = 0;  ///< 2 bits
  std::uint8_t link_speed_ext2_enabled = 0;    ///< 3 bits
  SmpData raw{};                              ///< payload as received: reserved bits survive encode()

  /// Decode the 64-byte payload. Never fails: every bit pattern is a PortInfo.
  static PortInfo decode(const SmpData& data);
  /// Write every field over `raw` into `data`; decode(d).encode(x) leaves x == d.
  void encode(SmpData& data) const;
};

}  // namespace smd::mad
