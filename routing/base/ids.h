// Identifiers shared by every layer: GUIDs, LIDs, port numbers (IBA vol. 1, 4.1 and 14.2.5).
#pragma once

#include <cstdint>
#include <limits>

namespace smd {

/// 64-bit EUI-64 node or port GUID.
using Guid = std::uint64_t;
/// Local identifier. Unicast 0x0001-0xBFFF, multicast 0xC000-0xFFFE, 0 = unassigned.
using Lid = std::uint16_t;
/// Physical port number on a node; 0 is a switch's management port.
using PortNum = std::uint8_t;
/// Index of a node inside one Topology snapshot (dense, 0..nodes()-1).
using NodeIndex = std::uint32_t;

inline constexpr NodeIndex kNoNode = std::numeric_limits<NodeIndex>::max();
inline constexpr Lid kMaxUnicastLid = 0xBFFF;
/// LFT entry meaning "no route" (IBA 14.2.5.10).
inline constexpr PortNum kNoPort = 0xFF;
/// LFT block size: 64 one-byte entries per LinearForwardingTable attribute.
inline constexpr unsigned kLftBlockSize = 64;

/// Names a port by what outlives a sweep: the node GUID and the port number (0 for switch port 0).
struct PortKey {
  Guid node_guid = 0;
  PortNum port = 0;
  auto operator<=>(const PortKey&) const = default;
};

}  // namespace smd
