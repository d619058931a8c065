// Per-hop SL2VL for engines whose VL changes along a route (torus-2QoS): a switch's SLtoVLMappingTable is
// per (input port, output port) pair (IBA 14.2.5.8, the attribute modifier names both), so the VL of a hop
// can depend on the direction a packet leaves by (torus-2QoS's dateline bit) and on the one it came from
// (its turn bit). Ports are grouped into in-port classes (a torus dimension, or "end port") so a switch
// keeps classes * ports tables instead of ports^2.
//
// Engines that keep one VL per route end to end (dfsssp, lash) do not use this: VlLayering maps layer l to
// VL l at every hop. With a HopSl2Vl beside the layering, the layer of a route is its SL and the VL of each
// hop is table(node, in, out)[SL].
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// SL -> VL of one (in port class, out port) of one node; VL 15 drops (IBA 7.6.6).
using HopVlMap = std::array<std::uint8_t, 16>;

/// The SL2VL of every port pair of every node that has one; nodes without a table map SL s to VL s.
class HopSl2Vl {
 public:
  HopSl2Vl() = default;
  /// Room for `nodes` nodes (NodeIndex 0..nodes-1), none with a table yet.
  explicit HopSl2Vl(std::size_t nodes) : nodes_(nodes) {}

  /// Give `node` tables: `in_class[p]` is the class of in port p (0..classes-1, size = ports + 1, port 0
  /// included); every (class, out port) starts as SL s -> VL s. Ignored for a node past the size.
  void set_classes(NodeIndex node, std::vector<std::uint8_t> in_class, std::uint8_t classes);
  /// The table of packets entering `node` by a port of class `in_class` and leaving by `out`. Ignored
  /// when the node has no tables (set_classes first) or the class or port is out of range.
  void set(NodeIndex node, std::uint8_t in_class, PortNum out, const HopVlMap& map);

  /// The table packets entering `node` on port `in` and leaving on `out` use; SL s -> VL s for a node or
  /// port without one.
  HopVlMap table(NodeIndex node, PortNum in, PortNum out) const;
  /// table(node, in, out)[sl & 15].
  std::uint8_t vl(NodeIndex node, PortNum in, PortNum out, std::uint8_t sl) const { return table(node, in, out)[sl & 15]; }
  /// True when `node` has tables of its own.
  bool has(NodeIndex node) const { return node < nodes_.size() && nodes_[node].classes > 0; }
  /// 1 + the highest VL any table maps to (VL 15, the drop, not counted); 1 when none.
  std::uint8_t vls_used() const;

  /// The same tables with node n moved to new_of[n] (a fabric with nodes removed, as routing/whatif
  /// builds it); nodes mapped past `size` are dropped.
  HopSl2Vl renumbered(const std::vector<NodeIndex>& new_of, std::size_t size) const;

  bool operator==(const HopSl2Vl&) const = default;

 private:
  struct NodeTables {
    std::uint8_t classes = 0;
    std::vector<std::uint8_t> in_class;  ///< [port] -> class
    std::vector<HopVlMap> maps;          ///< [class * ports + out]
    bool operator==(const NodeTables&) const = default;
  };
  std::vector<NodeTables> nodes_;
};

}  // namespace smd
