#include "smd/state/port_fields_view.h"

#include "smd/fabric/port_fields.h"
#include "smd/state/port_info_matrix.h"

namespace smd {

static_assert(std::tuple_size_v<PortFieldsView::Values> == kPortFieldCount);

PortFieldsView make_port_fields_view(const ObservedFabric& known) {
  PortFieldsView view;
  view.ports = port_info_matrix<PortFieldsView::Values>(known, [](const mad::PortInfo& pi) {
    PortFieldsView::Values v{};
    for (std::size_t f = 0; f < kPortFieldCount; ++f) v[f] = port_field(pi, static_cast<PortField>(f));
    return v;
  });
  view.life_time_value.resize(known.nodes.size());
  for (std::size_t n = 0; n < known.nodes.size(); ++n) {
    if (known.nodes[n].switch_info) view.life_time_value[n] = known.nodes[n].switch_info->life_time_value;
  }
  return view;
}

}  // namespace smd
