#include "smd/state/port_link_view.h"

#include "smd/state/port_info_matrix.h"

namespace smd {

PortLinkView make_port_link_view(const ObservedFabric& known) {
  PortLinkView view;
  view.nodes.reserve(known.nodes.size());
  for (const NodeRecord& node : known.nodes) {
    view.nodes.push_back({node.node_info.vendor_id, node.node_info.device_id, node.node_info.revision});
  }
  view.ports = port_info_matrix<PortLinkView::Link>(known, [](const mad::PortInfo& pi) {
    return PortLinkView::Link{
        pi.port_state,
        pi.link_width_active,
        pi.link_speed_active,
        pi.link_speed_ext_active,
        (pi.capability_mask & mad::capmask::kIsExtendedSpeedsSupported) != 0,
        pi.master_sm_lid,
    };
  });
  return view;
}

}  // namespace smd
