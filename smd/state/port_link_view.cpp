#include "smd/state/port_link_view.h"

namespace smd {

PortLinkView make_port_link_view(const ObservedFabric& known) {
  PortLinkView view;
  view.nodes.resize(known.nodes.size());
  view.ports.resize(known.nodes.size());
  for (std::size_t n = 0; n < known.nodes.size(); ++n) {
    const NodeRecord& node = known.nodes[n];
    view.nodes[n] = {node.node_info.vendor_id, node.node_info.device_id, node.node_info.revision};
    view.ports[n].resize(node.ports.size());
    for (std::size_t p = 0; p < node.ports.size(); ++p) {
      const std::optional<mad::PortInfo>& pi = node.ports[p].port_info;
      if (!pi) continue;
      view.ports[n][p] = PortLinkView::Link{
          pi->port_state,
          pi->link_width_active,
          pi->link_speed_active,
          pi->link_speed_ext_active,
          (pi->capability_mask & mad::capmask::kIsExtendedSpeedsSupported) != 0,
          pi->master_sm_lid,
      };
    }
  }
  return view;
}

}  // namespace smd
