// What a real SMA (an HCA's or a switch's firmware) does with PortInfo and SwitchInfo that ibsim does not,
// for FakeFabric::model_real_devices(): the checks behind status 0x1C (IBA 13.4.7: "invalid value in an
// attribute field or modifier"; the SMA then changes nothing) and the rule that extended speed fields are
// reported and taken only when the SM sets SMSupportsExtendedSpeeds (PortInfo modifier bit 31, IBA 1.3+
// 14.2.5.6). The caps below are of the order real devices report, not one product's exact values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"

namespace smd::test {

/// What one port of a modelled device supports.
struct RealPortCaps {
  std::uint8_t width_supported = 1 | 2 | 16;  ///< 1x | 4x | 2x
  std::uint8_t speed_supported = 1 | 2 | 4;   ///< SDR | DDR | QDR
  std::uint8_t ext_supported = 1 | 2 | 4 | 8;  ///< FDR | EDR | HDR | NDR
  std::uint8_t ext_active = 8;                 ///< NDR on a trained link
  bool xdr = false;                            ///< LinkSpeedExt2 (XDR) supported and active
  std::uint8_t mtu_cap = 5;                    ///< 4096
  std::uint8_t vl_cap = 4;                     ///< VL0-7
};

/// SwitchInfo caps of a modelled switch (IBA 14.2.5.4).
inline constexpr std::uint16_t kRealLinearFdbCap = 49152;
inline constexpr std::uint16_t kRealMulticastFdbCap = 4096;

/// Why a real SMA refuses this PortInfo Set with status 0x1C, or nullopt when it takes it. `endport`: a CA
/// port or a switch's port 0, the ports whose LID, LMC and MasterSMLID exist. `extended`: the port has
/// IsExtendedSpeedsSupported, so with bit 31 LinkSpeedExtEnabled is checked too.
std::optional<std::string> port_info_set_refusal(const mad::PortInfo& in, std::uint32_t attr_mod,
                                                 const RealPortCaps& caps, bool endport, bool extended);

/// Why a real switch refuses this SwitchInfo Set with status 0x1C (LinearFDBTop beyond LinearFDBCap,
/// MulticastFDBTop beyond the MFT), or nullopt.
std::optional<std::string> switch_info_set_refusal(const mad::SwitchInfo& in);

/// A link enable as an SMA stores it (IBA 14.2.5.6): 0 keeps `held`, `all_code` (255 width, 15 speed, 31
/// extended speed) becomes `supported`, a mask is kept as written.
std::uint8_t stored_enable(std::uint8_t written, std::uint8_t held, std::uint8_t all_code, std::uint8_t supported);

}  // namespace smd::test
