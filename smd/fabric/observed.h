// ObservedFabric: the fabric as its SMAs reported it to one discovery, as decoded records. Discovery
// (smd/sweep) builds it once; nothing after discovery edits it: what the SM writes and the SMAs
// acknowledge is kept apart (smd/fabric/sweep_fabric.h), and what routing and policy want is
// DesiredFabric (smd/fabric/desired.h). Read-modify-write Sets start from these decoded records:
// mad::PortInfo and mad::SwitchInfo keep their payload's reserved bits, so encode() of a record
// reproduces the bytes read (tests/unit/mad).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mad/codec/dr_path.h"
#include "mad/codec/node_info.h"
#include "mad/codec/port_info.h"
#include "mad/codec/switch_info.h"
#include "routing/model/topology.h"
#include "smd/fabric/sweep_problem.h"

namespace smd {

/// One port as its SMA reported it (IBA 14.2.5.6).
struct PortRecord {
  mad::DrPath path;                        ///< directed route to the SMA that answers for this port
  std::optional<mad::PortInfo> port_info;  ///< nullopt: not read (lost, or not asked yet)
  /// port_info came from a Get with SMSupportsExtendedSpeeds (mad::port_info_mod): its LinkSpeedExt* hold
  /// what the port really runs. Without it a real SMA may report them as 0.
  bool extended_read = false;
};

/// One node as discovery read it; index i is node i of ObservedFabric::topo.
struct NodeRecord {
  mad::NodeInfo node_info;                     ///< the first NodeInfo this node answered (IBA 14.2.5.3)
  bool description_read = false;               ///< NodeDescription answered (its text is Node::description)
  std::optional<mad::SwitchInfo> switch_info;  ///< switches: SwitchInfo (IBA 14.2.5.4); nullopt until read
  std::vector<PortRecord> ports;               ///< [port number], NumPorts + 1 records
};

/// Whether PortInfo SMPs to port `p` of a node with records `rec` carry SMSupportsExtendedSpeeds: the
/// port's own CapabilityMask, or on a switch port 0's (the one IBA 14.2.5.6 makes valid there), as read,
/// advertises IsExtendedSpeedsSupported. False while neither was read. The one rule for discovery (while
/// its records fill in) and for everything after it (ObservedFabric::extended_speeds).
inline bool takes_extended_speeds(const NodeRecord& rec, bool is_switch, PortNum p) {
  auto advertises = [](const std::optional<mad::PortInfo>& pi) {
    return pi && (pi->capability_mask & mad::capmask::kIsExtendedSpeedsSupported) != 0;
  };
  return (p < rec.ports.size() && advertises(rec.ports[p].port_info)) ||
         (is_switch && !rec.ports.empty() && advertises(rec.ports[0].port_info));
}

/// What one discovery observed: the cabling as a Topology (for routing), one decoded record per node, and
/// what could not be read or believed.
struct ObservedFabric {
  std::shared_ptr<Topology> topo;      ///< null before the first discovery
  std::vector<NodeRecord> nodes;       ///< [NodeIndex of topo]
  std::vector<SweepProblem> problems;  ///< failures of the discovery pass that built this
  std::uint64_t smps = 0;              ///< SMPs answered during that pass

  /// PortInfo of port `p` of node `n` as read, or null when it was not.
  const mad::PortInfo* port_info(NodeIndex n, PortNum p) const {
    const auto& pi = nodes[n].ports[p].port_info;
    return pi ? &*pi : nullptr;
  }
  /// Whether PortInfo SMPs to port `p` of node `n` carry SMSupportsExtendedSpeeds (takes_extended_speeds).
  bool extended_speeds(NodeIndex n, PortNum p) const {
    return takes_extended_speeds(nodes[n], topo->node(n).is_switch(), p);
  }
  /// The PortInfo attribute modifier for port `p` of node `n`: the port, and bit 31 where extended_speeds().
  std::uint32_t port_info_mod(NodeIndex n, PortNum p) const { return mad::port_info_mod(p, extended_speeds(n, p)); }
  /// Directed route to the SMA of port `p` of node `n` (a switch's ports all answer at the switch).
  const mad::DrPath& port_path(NodeIndex n, PortNum p) const { return nodes[n].ports[p].path; }
};

}  // namespace smd
