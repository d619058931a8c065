// Topology: one snapshot of the fabric (nodes, ports, links) as discovery or a netfile describes it.
// Built once, then shared read-only (std::shared_ptr<const Topology>); routing never mutates it.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// NodeInfo:NodeType (IBA 14.2.5.3).
enum class NodeType : std::uint8_t { kCa = 1, kSwitch = 2, kRouter = 3 };

/// PortInfo:PortState (IBA 14.2.5.6). kNoChange is only meaningful in a Set.
enum class PortState : std::uint8_t { kNoChange = 0, kDown = 1, kInit = 2, kArmed = 3, kActive = 4 };

const char* to_string(NodeType type);
const char* to_string(PortState state);

/// One physical port. For a switch, ports[0] is the management port that carries the switch's LID.
struct Port {
  PortNum num = 0;
  Guid guid = 0;         ///< port GUID (all ports of a switch report the node's port-0 GUID)
  Lid lid = 0;           ///< base LID found on the port (0 = none yet)
  std::uint8_t lmc = 0;  ///< LMC found on the port
  PortState state = PortState::kDown;
  std::uint8_t phys_state = 0;         ///< PortPhysicalState (5 = LinkUp)
  std::uint8_t link_width_active = 0;  ///< IBA encoding: 1=1x 2=4x 4=8x 8=12x 16=2x
  std::uint8_t link_speed_active = 0;  ///< IBA encoding: 1=SDR 2=DDR 4=QDR (extended speeds not folded in)
  /// PortInfo:VLCap (IBA 14.2.5.6): 1 = VL0, 2 = VL0-1, 3 = VL0-3, 4 = VL0-7, 5 = VL0-14; 0 = unknown
  /// (a netfile or a generated fabric). A link operates min(VLCap) of its two ends (OperationalVLs).
  std::uint8_t vl_cap = 0;
  NodeIndex peer = kNoNode;  ///< node at the other end of the cable, kNoNode if none
  PortNum peer_port = 0;

  bool connected() const { return peer != kNoNode; }
};

/// One node: a channel adapter, switch or router.
struct Node {
  Guid guid = 0;  ///< NodeGUID
  Guid system_image_guid = 0;
  NodeType type = NodeType::kCa;
  std::string description;            ///< NodeDescription (64 bytes max on the wire)
  PortNum num_ports = 0;              ///< NodeInfo:NumPorts (physical ports, port 0 excluded)
  std::vector<Port> ports;            ///< size num_ports + 1, indexed by port number
  std::uint16_t lft_cap = 0;          ///< SwitchInfo:LinearFDBCap (switches only)
  std::uint16_t lft_top = 0;          ///< SwitchInfo:LinearFDBTop as found (switches only)
  std::vector<std::uint8_t> dr_path;  ///< directed route from the SM port: out-port per hop (empty = SM's node)

  bool is_switch() const { return type == NodeType::kSwitch; }
};

/// "0x0002c90300001234": a GUID as 16 zero-padded hex digits, the way OpenSM and ibnetdiscover print it.
std::string format_guid(Guid guid);

/// "0x0002c90300001234 (leaf-3)": a node's GUID and, when it has one, its NodeDescription, for messages.
std::string describe_node(const Node& node);

/// Render a directed path as OpenSM prints it: "0,1,5,3" (leading 0 = the SM's own node).
std::string format_dr_path(const std::vector<std::uint8_t>& path);

/// The fabric graph. Nodes are addressed by dense NodeIndex; links are stored on both ports.
class Topology {
 public:
  /// Add a node; ports must be sized num_ports + 1. Errors: duplicate GUID (message names both paths).
  Result<NodeIndex> add_node(Node node);

  /// Cable a.pa <-> b.pb. Errors: port out of range, or either end already cabled elsewhere.
  Status connect(NodeIndex a, PortNum pa, NodeIndex b, PortNum pb);

  std::size_t size() const { return nodes_.size(); }
  const Node& node(NodeIndex i) const { return nodes_[i]; }
  Node& mutable_node(NodeIndex i) { return nodes_[i]; }
  const std::vector<Node>& nodes() const { return nodes_; }
  std::optional<NodeIndex> find(Guid node_guid) const;

  /// Switch indices, in insertion order.
  const std::vector<NodeIndex>& switches() const { return switches_; }
  /// CA (and router) indices, in insertion order.
  const std::vector<NodeIndex>& cas() const { return cas_; }

  /// Number of distinct cables (each counted once).
  std::size_t link_count() const;

  /// Where the SM sits (node and port); kNoNode for an offline topology without an SM.
  NodeIndex sm_node = kNoNode;
  PortNum sm_port = 0;

 private:
  std::vector<Node> nodes_;
  std::vector<NodeIndex> switches_;
  std::vector<NodeIndex> cas_;
  std::unordered_map<Guid, NodeIndex> by_guid_;
};

}  // namespace smd
