// PortInfoRecord (attribute 0x0012, IBA vol. 1, 15.2.5.3): one port's PortInfo with the LID of its
// node's endport and the port number. 72 bytes: LID (2), PortNum (1), Options (1), PortInfo (64), 4 pad.
// ComponentMask bits: 0 LID, 1 PortNum, 2 Options, 3.. the PortInfo fields in order (table 150), reserved
// runs included, up to 57 LinkSpeedExtEnabled.
// Options bit 7 (IsCapabilityMaskMatchSupported path, used by srp_daemon) asks the SA to match
// CapabilityMask as "all the requested bits set" instead of equality; bit 6 the same for CapabilityMask2.
#pragma once

#include <cstdint>
#include <span>

#include "mad/codec/smp.h"
#include "mad/sa/record_layout.h"

namespace smd::mad::sa {

/// PortInfoRecord ComponentMask bits the SA treats specially.
namespace pir_mask {
inline constexpr std::uint64_t kLid = 1ull << 0;
inline constexpr std::uint64_t kPortNum = 1ull << 1;
inline constexpr std::uint64_t kOptions = 1ull << 2;
inline constexpr std::uint64_t kCapabilityMask = 1ull << 7;
inline constexpr std::uint64_t kCapabilityMask2 = 1ull << 53;
}  // namespace pir_mask

/// PortInfoRecord:Options bits (IBA 1.3, 15.2.5.3).
inline constexpr std::uint8_t kPirOptionCapMaskMatch = 0x80;
inline constexpr std::uint8_t kPirOptionCapMask2Match = 0x40;

struct PortInfoRecord {
  static constexpr std::size_t kSize = 72;

  std::uint16_t lid = 0;  ///< EndportLID: the CA port's LID, or the switch's port-0 LID for every switch port
  std::uint8_t port_num = 0;
  std::uint8_t options = 0;
  SmpData port_info{};  ///< the PortInfo SMP payload as held

  static PortInfoRecord decode(std::span<const std::uint8_t> rec);
  void encode(std::span<std::uint8_t> rec) const;
};

extern const RecordLayout kPortInfoRecordLayout;

}  // namespace smd::mad::sa
