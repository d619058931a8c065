#include "routing/model/vl_layers.h"

#include <algorithm>

namespace smd {

VlLayering::VlLayering(const Topology& topo, Lid max_lid) : max_lid_(max_lid), row_(topo.size(), kNoRow) {
  std::uint32_t rows = 0;
  for (NodeIndex s : topo.switches()) row_[s] = rows++;
  layer_.assign(static_cast<std::size_t>(rows) * width(), 0);
}

void VlLayering::set(NodeIndex src_switch, Lid dlid, std::uint8_t layer) {
  if (src_switch >= row_.size() || row_[src_switch] == kNoRow || dlid > max_lid_) return;
  layer_[static_cast<std::size_t>(row_[src_switch]) * width() + dlid] = layer;
  layers_ = std::max<std::uint8_t>(layers_, static_cast<std::uint8_t>(layer + 1));
}

}  // namespace smd
