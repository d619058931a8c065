#include "smd/state/port_fields_view.h"

#include "smd/fabric/port_fields.h"

namespace smd {

static_assert(std::tuple_size_v<PortFieldsView::Values> == kPortFieldCount);

PortFieldsView make_port_fields_view(const ObservedFabric& known) {
  PortFieldsView view;
  view.ports.resize(known.nodes.size());
  view.life_time_value.resize(known.nodes.size());
  for (std::size_t n = 0; n < known.nodes.size(); ++n) {
    const NodeRecord& node = known.nodes[n];
    if (node.switch_info) view.life_time_value[n] = node.switch_info->life_time_value;
    view.ports[n].resize(node.ports.size());
    for (std::size_t p = 0; p < node.ports.size(); ++p) {
      if (!node.ports[p].port_info) continue;
      PortFieldsView::Values v{};
      for (std::size_t f = 0; f < kPortFieldCount; ++f)
        v[f] = port_field(*node.ports[p].port_info, static_cast<PortField>(f));
      view.ports[n][p] = v;
    }
  }
  return view;
}

}  // namespace smd
