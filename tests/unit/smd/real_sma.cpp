#include "tests/unit/smd/real_sma.h"

namespace smd::test {

namespace {

// A link enable is valid as 0 (no change), as the all-supported code, or as a non-empty subset of what the
// port supports; `off_code` (extended speeds' 30, "disabled") is valid too where there is one.
bool enable_ok(std::uint8_t v, std::uint8_t all_code, std::uint8_t supported, int off_code = -1) {
  if (v == 0 || v == all_code || static_cast<int>(v) == off_code) return true;
  return (v & ~supported) == 0;
}

}  // namespace

std::optional<std::string> port_info_set_refusal(const mad::PortInfo& in, std::uint32_t attr_mod,
                                                 const RealPortCaps& caps, bool endport, bool extended) {
  if ((attr_mod & 0x7fffff00u) != 0) return "reserved attribute modifier bits 8-30 set";
  if (!enable_ok(in.link_width_enabled, 255, caps.width_supported)) return "LinkWidthEnabled beyond supported";
  if (!enable_ok(in.link_speed_enabled, 15, caps.speed_supported)) return "LinkSpeedEnabled beyond supported";
  if (extended && (attr_mod & mad::kSmSupportsExtendedSpeeds) &&
      !enable_ok(in.link_speed_ext_enabled, 31, caps.ext_supported, 30)) {
    return "LinkSpeedExtEnabled beyond supported";
  }
  if (in.neighbor_mtu > caps.mtu_cap) return "NeighborMTU above MTUCap";
  if (in.operational_vls > caps.vl_cap) return "OperationalVLs above VLCap";
  if (in.port_state > 4) return "PortState reserved value";
  if (in.port_physical_state > 3) return "PortPhysicalState not settable to this value";
  if (endport && in.lid >= 0xC000) return "LID in the multicast range";
  if (endport && in.master_sm_lid >= 0xC000) return "MasterSMLID in the multicast range";
  return std::nullopt;
}

std::optional<std::string> switch_info_set_refusal(const mad::SwitchInfo& in) {
  if (in.linear_fdb_top >= kRealLinearFdbCap) return "LinearFDBTop beyond LinearFDBCap";
  if (in.multicast_fdb_top != 0 && in.multicast_fdb_top >= 0xC000u + kRealMulticastFdbCap) {
    return "MulticastFDBTop beyond MulticastFDBCap";
  }
  return std::nullopt;
}

std::uint8_t stored_enable(std::uint8_t written, std::uint8_t held, std::uint8_t all_code, std::uint8_t supported) {
  if (written == 0) return held;
  if (written == all_code) return supported;
  return written;
}

}  // namespace smd::test
