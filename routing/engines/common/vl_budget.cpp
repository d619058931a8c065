#include "routing/engines/common/vl_budget.h"

#include <algorithm>

#include "routing/model/vl_layers.h"

namespace smd {

VlBudget available_data_vls(const Topology& topo, std::uint8_t data_vls, unsigned max_vls,
                            std::string_view max_vls_key) {
  VlBudget budget;
  budget.vls = kMaxDataVls;
  budget.limit = "the IBA maximum of 15 data VLs";
  for (NodeIndex s : topo.switches()) {
    const Node& node = topo.node(s);
    for (PortNum p = 1; p < node.ports.size(); ++p) {
      const Port& port = node.ports[p];
      // CA links count too: a host injects on the VL its own SL2VL table gives the route's SL, so every
      // layer must exist on its link as well.
      if (!port.connected() || port.peer == s) continue;
      const Port& far = topo.node(port.peer).ports[port.peer_port];
      // The lower non-zero VLCap of the two ends is what the link operates.
      std::uint8_t cap = port.vl_cap;
      if (cap == 0 || (far.vl_cap != 0 && far.vl_cap < cap)) cap = far.vl_cap;
      const std::uint8_t vls = data_vls_of_cap(cap);
      if (vls == 0 || vls >= budget.vls) continue;
      budget.vls = vls;
      const bool near_limits = port.vl_cap == cap;
      const NodeIndex at = near_limits ? s : port.peer;
      const PortNum at_port = near_limits ? p : port.peer_port;
      budget.limit = std::string(topo.node(at).is_switch() ? "switch " : "CA ") + describe_node(topo.node(at)) +
                     " port " + std::to_string(at_port) + " has VLCap " + std::to_string(cap) + " (" +
                     std::to_string(vls) + (vls == 1 ? " VL" : " VLs") + ")";
    }
  }
  if (data_vls < budget.vls) {
    budget.vls = std::max<std::uint8_t>(data_vls, 1);
    budget.limit = budget.vls == 1 ? "qos.enabled is off or the QoS policy allows 1 VL"
                                   : "the QoS policy allows " + std::to_string(budget.vls) + " VLs";
  }
  if (max_vls != 0 && max_vls < budget.vls) {
    budget.vls = static_cast<std::uint8_t>(max_vls);
    budget.limit = std::string(max_vls_key) + " is " + std::to_string(max_vls);
  }
  return budget;
}

namespace {

std::string plural(unsigned n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

Error layers_do_not_fit(std::uint8_t layers_needed, bool exceeded, const VlBudget& budget) {
  const std::string needs = exceeded ? "more than " + std::to_string(kMaxDataVls) + " virtual layers"
                                     : plural(layers_needed, "virtual layer", "virtual layers");
  return make_error(ErrorCode::kDeclined, "needs " + needs + ", the fabric offers " +
                                              plural(budget.vls, "data VL", "data VLs") + " (" + budget.limit + ")");
}

}  // namespace smd
