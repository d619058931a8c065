// The VL arbitration plan (OpenSM's osm_qos.c vlarb part, as a pure function): the high- and
// low-priority VLArbitrationTable (IBA 14.2.5.9) and VLHighLimit (14.2.5.6) every port should hold, from
// the policy's table for the port's type (routing/qos/sl2vl_plan.h QosPortType).
//
// A table is cut to the port's VLArbitrationHighCap / LowCap and padded with empty entries (VL 0, weight
// 0: skipped) up to it, so the blocks written overwrite what a previous policy left past the policy's
// list. A port with one data VL (VLCap 1) has nothing to arbitrate and gets nothing (OpenSM skips it).
#pragma once

#include <vector>

#include "routing/model/topology.h"
#include "routing/qos/qos_spec.h"

namespace smd {

/// What a port reports of its arbitration tables (PortInfo VLCap, VLArbitrationHighCap, LowCap).
struct VlArbCaps {
  std::uint8_t vl_cap = 0;  ///< PortInfo:VLCap code; 0 = unknown (the port is left out)
  std::uint8_t high_cap = 0;
  std::uint8_t low_cap = 0;
};

/// One port's wanted arbitration.
struct PortVlArb {
  NodeIndex node = kNoNode;
  PortNum port = 0;
  std::vector<VlArbEntry> high;  ///< exactly high_cap entries (at most kMaxVlArbEntries)
  std::vector<VlArbEntry> low;   ///< exactly low_cap entries (at most kMaxVlArbEntries)
  std::uint8_t high_limit = 0;   ///< VLHighLimit
};

/// The ports that get arbitration: every CA and router port, every switch port 1..N, and port 0 of a
/// switch whose `enhanced_port0[node]` is true (a base port 0 has no VL arbitration of its own). `caps`
/// is [NodeIndex][PortNum]; a port past its size, or with vl_cap 0 or 1, is left out.
std::vector<PortVlArb> plan_vlarb(const Topology& topo, const QosSpec& spec,
                                  const std::vector<std::vector<VlArbCaps>>& caps,
                                  const std::vector<bool>& enhanced_port0);

}  // namespace smd
