// How many data VLs a VL-layered routing may use on a fabric: every switch-to-switch link operates
// min(VLCap) of its two ends (IBA 14.2.5.6 OperationalVLs), and a layer needs its VL on every link.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "routing/base/status.h"
#include "routing/model/topology.h"

namespace smd {

/// The VLs available and what limits them, for the message when a layering does not fit.
struct VlBudget {
  std::uint8_t vls = 1;  ///< 1..kMaxDataVls
  /// Why no more: "qos.enabled is off", "routing.lash.max_vls is 2", "switch 0x... (sw-3) port 5 ...".
  std::string limit;
};

/// min over every switch-to-switch cable of data_vls_of_cap(min VLCap of its two ends), ends with VLCap 0
/// (unknown: a netfile or generated fabric) not limiting; then capped by `data_vls` (RoutingOptions::
/// data_vls: 1 unless qos.enabled) and by `max_vls` when non-zero, the engine's own cap, named in the
/// limit as `max_vls_key` ("routing.dfsssp.max_vls", "routing.lash.max_vls"). O(ports).
VlBudget available_data_vls(const Topology& topo, std::uint8_t data_vls, unsigned max_vls,
                            std::string_view max_vls_key);

/// The error of a layered engine whose layering does not fit `budget`: kDeclined (the chain moves on),
/// "needs 3 virtual layers, the fabric offers 1 data VL (qos.enabled is off ...)"; `exceeded` when the
/// placement ran past the IBA maximum ("needs more than 15 virtual layers").
Error layers_do_not_fit(std::uint8_t layers_needed, bool exceeded, const VlBudget& budget);

}  // namespace smd
