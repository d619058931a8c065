// How many data VLs a VL-layered routing may use on a fabric: every switch-to-switch link operates
// min(VLCap) of its two ends (IBA 14.2.5.6 OperationalVLs), and a layer needs its VL on every link.
#pragma once

#include <cstdint>
#include <string>

#include "routing/model/topology.h"

namespace smd {

/// The VLs available and what limits them, for the message when a layering does not fit.
struct VlBudget {
  std::uint8_t vls = 1;  ///< 1..kMaxDataVls
  /// Why no more: "qos.enabled is off", "routing.dfsssp.max_vls is 2", "switch 0x... (sw-3) port 5 ...".
  std::string limit;
};

/// min over every switch-to-switch cable of data_vls_of_cap(min VLCap of its two ends), ends with VLCap 0
/// (unknown: a netfile or generated fabric) not limiting; then capped by `data_vls` (RoutingOptions::
/// data_vls: 1 unless qos.enabled) and by `max_vls` when non-zero (routing.dfsssp.max_vls). O(ports).
VlBudget available_data_vls(const Topology& topo, std::uint8_t data_vls, unsigned max_vls);

}  // namespace smd
