// The SL2VL plan (OpenSM's osm_qos.c sl2vl part, as a pure function): the SLtoVLMappingTable every port
// of a fabric should hold (IBA 14.2.5.8), from the policy's per-type tables and, when a VL-layered engine
// routed, its requirement that SL l travel on VL l at every hop (routing/model/vl_layers.h).
//
// The table of a port depends only on the out port's type: a CA port takes `spec.ca`, a router port
// `spec.router`, a switch's port 0 `spec.switch_port0` and every other switch port `spec.switch_external`
// (OpenSM's qos_ca_, qos_rtr_, qos_sw0_, qos_swe_); the in port does not change it. The engine's layers
// win over the policy: SL l -> VL l for every l below the layer count, the policy's entries above. An
// engine whose VL changes hop by hop (torus-2QoS, VlLayering::hop_sl2vl) gives its own table per (node,
// in port, out port) instead, and those replace the policy's at every node it set them for.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "routing/model/topology.h"
#include "routing/model/vl_layers.h"
#include "routing/qos/qos_spec.h"
#include "routing/qos/sl2vl_lookup.h"

namespace smd {

/// Which of the policy's per-type tables a port takes.
enum class QosPortType : std::uint8_t { kCa, kRouter, kSwitchPort0, kSwitchExternal };

const char* to_string(QosPortType type);

/// The port type of out port `out` of `node` (QosSpec: ca, router, switch_port0, switch_external).
QosPortType qos_port_type(NodeType node_type, PortNum out);
inline QosPortType qos_port_type(const Node& node, PortNum out) { return qos_port_type(node.type, out); }

/// The policy's settings for a port type.
const QosPortSpec& qos_port_spec(const QosSpec& spec, QosPortType type);

/// The largest VLCap / OperationalVLs code (1..5) whose data VLs do not exceed `max_vls` (1..15): 4 -> 3
/// (VL0-3), 7 -> 3, 8 -> 4, 15 -> 5; 0 -> 1 (a link always carries VL0).
constexpr std::uint8_t op_vls_code_for(std::uint8_t max_vls) {
  std::uint8_t code = 1;
  for (std::uint8_t c = 2; c <= 5; ++c) {
    if (data_vls_of_cap(c) <= max_vls) code = c;
  }
  return code;
}

/// SLs whose VL a port cannot carry: packets on them are dropped there. One per (node, port type).
struct Sl2VlProblem {
  Guid node_guid = 0;
  QosPortType type = QosPortType::kCa;
  std::vector<std::uint8_t> sls;  ///< ascending, each once
  std::string reason;             ///< "SL 8 maps to VL 8 but port 3 operates 4 data VLs ..."
};

/// The problems as an operator reads them: one line per (port type, SLs dropped) however many nodes share
/// it, "<type> ports of N nodes drop SLs 8-14 (e.g. 0x... : SL 8 maps to VL 8 but port 3 operates 8 data
/// VLs ...)", in the order first seen. OpenSM's default SL2VL on 8-VL ports gives one line, not one per node.
std::vector<std::string> summarize_problems(const std::vector<Sl2VlProblem>& problems);

class Sl2VlPlan final : public Sl2VlLookup {
 public:
  /// `layering` may be null (no VL-layered engine); with one layer it changes nothing. The plan keeps no
  /// reference to its arguments. A port's operational data VLs are data_vls_of_cap(min(VLCap of both
  /// ends)) capped by its type's max_vls; a port whose VLCap (or its peer's) is unknown is not checked.
  Sl2VlPlan(const Topology& topo, const QosSpec& spec, const VlLayering* layering);

  Sl2Vl table(NodeIndex node, PortNum in, PortNum out) const override;
  /// The table of every port of a type (after the layers' override).
  const Sl2Vl& table_of(QosPortType type) const { return tables_[static_cast<std::size_t>(type)]; }

  /// Ports with SLs mapped to VLs they cannot carry (problems, not errors: the tables are still written).
  const std::vector<Sl2VlProblem>& problems() const { return problems_; }
  /// "switch_external: policy maps SL 1 to VL 3, the routing layers need VL 1" per type overridden.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  std::vector<NodeType> node_types_;  ///< [NodeIndex]
  std::shared_ptr<const HopSl2Vl> hops_;  ///< the engine's per-hop tables, null when it has none
  Sl2Vl tables_[4]{};                 ///< [QosPortType]
  std::vector<Sl2VlProblem> problems_;
  std::vector<std::string> warnings_;
};

}  // namespace smd
