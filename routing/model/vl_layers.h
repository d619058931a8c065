// Virtual layers of a VL-layered routing (DFSSSP: Domke, Hoefler, Nagel, IPDPS 2011). Routes are split into
// layers so that each layer's channel-dependency graph is acyclic; a packet keeps its layer end to end
// because the source puts it on SL `layer` (the SA hands that SL out in PathRecord) and every port's SL2VL
// table maps SL `layer` to VL `layer`. LFTs are per destination, so the route from any source behind
// switch s to a LID d is the switch path s -> ... -> d: the layer is kept per (source switch, DLID).
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/hop_sl2vl.h"
#include "routing/model/topology.h"

namespace smd {

/// Largest number of data VLs (VL0-14, IBA 7.6.1); VL15 carries SMPs only.
inline constexpr std::uint8_t kMaxDataVls = 15;

/// Data VLs a VLCap / OperationalVLs code stands for (IBA 14.2.5.6): 1 -> 1, 2 -> 2, 3 -> 4, 4 -> 8,
/// 5 -> 15; 0 (unknown) and anything larger -> 0.
constexpr std::uint8_t data_vls_of_cap(std::uint8_t vl_cap) {
  switch (vl_cap) {
    case 1: return 1;
    case 2: return 2;
    case 3: return 4;
    case 4: return 8;
    case 5: return 15;
    default: return 0;
  }
}

/// The layer of every (source switch, destination LID) route, and the SL and VL a layer travels on.
class VlLayering {
 public:
  VlLayering() = default;
  /// Every route of every switch of `topo` on layer 0, LIDs 0..max_lid.
  VlLayering(const Topology& topo, Lid max_lid);

  /// Layer of the route from switch `src_switch` to `dlid`; 0 for a node that is not a switch or a LID
  /// past max_lid().
  std::uint8_t layer_of(NodeIndex src_switch, Lid dlid) const {
    if (src_switch >= row_.size() || row_[src_switch] == kNoRow || dlid > max_lid_) return 0;
    return layer_[static_cast<std::size_t>(row_[src_switch]) * width() + dlid];
  }
  /// Put the route from `src_switch` to `dlid` on `layer`; raises layers() to cover it. Ignored for a
  /// node that is not a switch or a LID past max_lid().
  void set(NodeIndex src_switch, Lid dlid, std::uint8_t layer);

  /// Layers in use (1 + the highest layer set), 1..kMaxDataVls.
  std::uint8_t layers() const { return layers_; }
  Lid max_lid() const { return max_lid_; }

  /// Data VLs the engine had to spread the layers over (RoutingOptions::data_vls or the smallest VLCap of
  /// the fabric), for the report; 0 = not recorded.
  std::uint8_t vls_available() const { return vls_available_; }
  void set_vls_available(std::uint8_t vls) { vls_available_ = vls; }

  /// The SL a path on `layer` carries (PathRecord SL) and the VL that SL must map to at every hop.
  static constexpr std::uint8_t sl_of_layer(std::uint8_t layer) { return layer; }
  static constexpr std::uint8_t vl_of_layer(std::uint8_t layer) { return layer; }

  /// torus-2QoS: the VL changes along a route, hop by hop, by SL2VL(node, in port, out port, SL). With
  /// tables set, layer_of() is the route's SL (still what PathRecord hands out) and vl_at() gives each hop's
  /// VL; without (null, dfsssp and lash), vl_at() is vl_of_layer(layer) at every hop.
  void set_hop_sl2vl(std::shared_ptr<const HopSl2Vl> tables) { hop_sl2vl_ = std::move(tables); }
  const std::shared_ptr<const HopSl2Vl>& hop_sl2vl() const { return hop_sl2vl_; }
  bool per_hop() const { return hop_sl2vl_ != nullptr; }
  /// The VL of a route on `layer` entering `node` on `in` and leaving on `out` (in = 0 where it starts).
  std::uint8_t vl_at(NodeIndex node, PortNum in, PortNum out, std::uint8_t layer) const {
    return hop_sl2vl_ ? hop_sl2vl_->vl(node, in, out, sl_of_layer(layer)) : vl_of_layer(layer);
  }
  /// Data VLs the routes need: layers() without hop tables, the tables' vls_used() with.
  std::uint8_t vls_used() const { return hop_sl2vl_ ? hop_sl2vl_->vls_used() : layers_; }

  bool operator==(const VlLayering&) const = default;

 private:
  static constexpr std::uint32_t kNoRow = 0xFFFFFFFFu;
  std::size_t width() const { return static_cast<std::size_t>(max_lid_) + 1; }

  Lid max_lid_ = 0;
  std::uint8_t layers_ = 1;
  std::uint8_t vls_available_ = 0;
  std::vector<std::uint32_t> row_;   ///< [NodeIndex] -> row of layer_, kNoRow for CAs and routers
  std::vector<std::uint8_t> layer_;  ///< [row * (max_lid + 1) + dlid]
  std::shared_ptr<const HopSl2Vl> hop_sl2vl_;  ///< null: VL = layer at every hop
};

}  // namespace smd
