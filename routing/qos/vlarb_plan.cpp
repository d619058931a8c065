#include "routing/qos/vlarb_plan.h"

#include <algorithm>

#include "routing/qos/sl2vl_plan.h"

namespace smd {

namespace {

std::vector<VlArbEntry> cut_to_cap(const std::vector<VlArbEntry>& want, std::uint8_t cap) {
  const std::size_t n = std::min<std::size_t>(cap, kMaxVlArbEntries);
  std::vector<VlArbEntry> out(n);
  std::copy_n(want.begin(), std::min(n, want.size()), out.begin());
  return out;
}

}  // namespace

std::vector<PortVlArb> plan_vlarb(const Topology& topo, const QosSpec& spec,
                                  const std::vector<std::vector<VlArbCaps>>& caps,
                                  const std::vector<bool>& enhanced_port0) {
  std::vector<PortVlArb> out;
  for (NodeIndex n = 0; n < topo.size() && n < caps.size(); ++n) {
    const Node& node = topo.node(n);
    const bool port0 = node.is_switch() && n < enhanced_port0.size() && enhanced_port0[n];
    for (PortNum p = port0 ? 0 : 1; p <= node.num_ports && p < caps[n].size(); ++p) {
      const VlArbCaps& c = caps[n][p];
      // VLCap 1 (VL0 only) has nothing to arbitrate; 0 means the PortInfo was never read.
      if (c.vl_cap <= 1) continue;
      const QosPortSpec& ps = qos_port_spec(spec, qos_port_type(node, p));
      out.push_back({n, p, cut_to_cap(ps.vlarb_high, c.high_cap), cut_to_cap(ps.vlarb_low, c.low_cap), ps.high_limit});
    }
  }
  return out;
}

}  // namespace smd
