// NodeInfo attribute (0x0011, IBA vol. 1, 14.2.5.3): what a node is. Read-only, Get only.
#pragma once

#include <cstdint>

#include "mad/codec/smp.h"

namespace smd::mad {

/// NodeInfo:NodeType values.
inline constexpr std::uint8_t kNodeTypeCa = 1;
inline constexpr std::uint8_t kNodeTypeSwitch = 2;
inline constexpr std::uint8_t kNodeTypeRouter = 3;

/// The 40 meaningful bytes of NodeInfo; `raw` keeps the payload as received so encode() reproduces it.
struct NodeInfo {
  std::uint8_t base_version = 0;   ///< MAD base version (1)
  std::uint8_t class_version = 0;  ///< SMP class version (1)
  std::uint8_t node_type = 0;      ///< kNodeTypeCa / kNodeTypeSwitch / kNodeTypeRouter
  std::uint8_t num_ports = 0;      ///< physical ports, port 0 of a switch not counted
  std::uint64_t system_image_guid = 0;
  std::uint64_t node_guid = 0;
  std::uint64_t port_guid = 0;      ///< GUID of the port the SMP entered (switch: port 0's)
  std::uint16_t partition_cap = 0;  ///< P_Key table entries
  std::uint16_t device_id = 0;
  std::uint32_t revision = 0;
  std::uint8_t local_port_num = 0;  ///< port the SMP entered by
  std::uint32_t vendor_id = 0;      ///< 24-bit IEEE OUI
  SmpData raw{};                    ///< payload as received (reserved bytes 40..63 survive encode)

  /// Decode the 64-byte SMP payload. Never fails: every bit pattern is a NodeInfo.
  static NodeInfo decode(const SmpData& data);
  /// Write every field over `raw` into `data` (64 bytes, network order).
  void encode(SmpData& data) const;
  bool is_switch() const { return node_type == kNodeTypeSwitch; }
};

}  // namespace smd::mad
