// PortLinkView: what OpenSM's opensm-subnet.lst prints of every node and port that the Topology does not
// carry: NodeInfo's VendorID, DeviceID and Revision (IBA 14.2.5.3), and per port the PortInfo fields of
// the link as the last configuring sweep knows them (read, or answered to a Set: IBA 14.2.5.6). Plain
// data, frozen in a FabricSnapshot beside PortFieldsView and made the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "smd/fabric/observed.h"

namespace smd {

struct PortLinkView {
  /// One node's identity as NodeInfo reports it.
  struct NodeIdent {
    std::uint32_t vendor_id = 0;  ///< 24-bit IEEE OUI
    std::uint16_t device_id = 0;
    std::uint32_t revision = 0;
  };
  /// One port's link as PortInfo reports it.
  struct Link {
    std::uint8_t port_state = 0;             ///< 1 Down, 2 Init, 3 Armed, 4 Active
    std::uint8_t link_width_active = 0;      ///< 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x
    std::uint8_t link_speed_active = 0;      ///< 1 = SDR, 2 = DDR, 4 = QDR
    std::uint8_t link_speed_ext_active = 0;  ///< 1 = FDR, 2 = EDR, 4 = HDR, 8 = NDR; 0 = base speed
    bool extended_speeds = false;            ///< CapabilityMask has IsExtendedSpeedsSupported
    Lid master_sm_lid = 0;                   ///< MasterSMLID
  };
  std::vector<NodeIdent> nodes;                         ///< [NodeIndex]
  std::vector<std::vector<std::optional<Link>>> ports;  ///< [NodeIndex][port]; nullopt: never read
};

/// The view of `known` (a sweep's fabric as known at its end, SweepRunner::known_fabric), indexed as its
/// topology. O(ports).
PortLinkView make_port_link_view(const ObservedFabric& known);

}  // namespace smd
