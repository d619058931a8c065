// Notice attribute (0x0002, IBA vol. 1, 14.2.5.1 and 13.4.8.2): the payload of a Trap / TrapRepress.
// An SMP carries the first 64 bytes; IssuerGID (bytes 64..79) exists only in the 80-byte Notice the SA
// sends in a Report, so decode(SmpData) leaves it zero and decode_full() reads it.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "mad/codec/smp.h"

namespace smd::mad {

/// Size of the whole Notice attribute (SA Report); an SMP only has room for kSmpDataSize of it.
inline constexpr std::size_t kNoticeFullSize = 80;
inline constexpr std::size_t kNoticeDataDetailsSize = 54;

/// Generic trap numbers the SM handles (IBA 14.2.5.1, table 144).
namespace trap {
inline constexpr std::uint16_t kLinkStateChange = 128;       ///< a switch port changed state; LIDADDR = switch
inline constexpr std::uint16_t kCapabilityMaskChange = 144;  ///< LIDADDR's CapabilityMask changed
/// Traps 129-131 name a port (LIDADDR, PORTNO) whose link misbehaves; a port sending them fast "babbles".
inline constexpr std::uint16_t kLocalLinkIntegrity = 129;    ///< LocalLinkIntegrityErrors crossed its threshold
inline constexpr std::uint16_t kExcessiveBufferOverrun = 130;  ///< ExcessiveBufferOverrunErrors crossed it
inline constexpr std::uint16_t kFlowControlWatchdog = 131;     ///< flow control update watchdog timer expired
}  // namespace trap

/// Trap 144 ChangeFlags bits (IBA 14.2.5.1, table 147): which of the issuer's local attributes changed.
namespace trap144_change {
inline constexpr std::uint16_t kSmPriorityChange = 0x0008;  ///< the SM's priority (SMInfo:Priority)
}  // namespace trap144_change

/// Notice:Type values of a generic notice.
namespace notice_type {
inline constexpr std::uint8_t kFatal = 0;
inline constexpr std::uint8_t kUrgent = 1;
inline constexpr std::uint8_t kSecurity = 2;
inline constexpr std::uint8_t kSubnetManagement = 3;
inline constexpr std::uint8_t kInfo = 4;
}  // namespace notice_type

struct Notice {
  bool is_generic = true;
  std::uint8_t type = 0;            ///< 7 bits, see notice_type::
  std::uint32_t producer_type = 0;  ///< 24 bits: ProducerType (generic: 1 CA 2 switch 3 router 4 SM)
                                    ///< or VendorID (vendor-specific)
  std::uint16_t trap_number = 0;    ///< TrapNumber (generic) or DeviceID (vendor-specific)
  std::uint16_t issuer_lid = 0;
  bool notice_toggle = false;
  std::uint16_t notice_count = 0;  ///< 15 bits
  std::array<std::uint8_t, kNoticeDataDetailsSize> data_details{};
  std::array<std::uint8_t, 16> issuer_gid{};  ///< only in the 80-byte form (decode_full / encode_full)

  /// Decode the 64-byte SMP payload of a Trap (IssuerGID is outside it and stays zero).
  static Notice decode(const SmpData& data);
  /// Encode the first 64 bytes (everything but IssuerGID). Every byte is a field: no reserved bits.
  void encode(SmpData& data) const;
  /// The 80-byte Notice of an SA Report, IssuerGID included.
  static Notice decode_full(std::span<const std::uint8_t, kNoticeFullSize> data);
  void encode_full(std::span<std::uint8_t, kNoticeFullSize> data) const;

  /// Trap 128 (link state change) DataDetails: LIDADDR of the switch whose port changed.
  std::uint16_t trap128_lid() const;
  void set_trap128_lid(std::uint16_t lid);
  /// Trap 144 (capability mask change) DataDetails: LIDADDR and its new CapabilityMask.
  std::uint16_t trap144_lid() const;
  std::uint32_t trap144_capability_mask() const;
  void set_trap144(std::uint16_t lid, std::uint32_t capability_mask);
  /// Trap 144's OtherLocalChanges bit (byte 5 bit 0) and ChangeFlags (bytes 10-11, trap144_change::):
  /// what changed besides the CapabilityMask, e.g. an SM's priority (IBA 14.4.1's nudge of a master).
  bool trap144_other_local_changes() const;
  std::uint16_t trap144_change_flags() const;
  void set_trap144_changes(bool other_local_changes, std::uint16_t change_flags);
  /// Traps 129, 130 and 131 DataDetails (IBA 14.2.5.1): LIDADDR (the switch's LID, or the CA port's) and
  /// PORTNO, the port whose link the trap is about.
  std::uint16_t port_trap_lid() const;
  std::uint8_t port_trap_port() const;
  void set_port_trap(std::uint16_t lid, std::uint8_t port);
};

}  // namespace smd::mad
