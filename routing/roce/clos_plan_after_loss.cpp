// RoutePlan::after_loss: see clos_plan.h. Kept apart from build(): it re-plans nothing that a switch's
// configuration fixes, only what BGP recomputes when sessions go down.
#include <string>
#include <vector>

#include "routing/roce/clos_plan.h"

namespace smd::roce {

Result<RoutePlan> RoutePlan::after_loss(const Topology& reduced) const {
  RoutePlan plan;
  plan.graph_ = SwitchGraph::build(reduced);
  const SwitchGraph& g = plan.graph_;
  const std::size_t n = g.num_switches();
  if (n != switches_.size()) {
    return make_error(ErrorCode::kInvalidInput, "RoCE plan after the loss: " + std::to_string(n) +
                                                    " switches, the plan before has " +
                                                    std::to_string(switches_.size()));
  }
  for (SwitchIndex s = 0; s < n; ++s) {
    if (g.node(s) != switches_[s].node) {
      return make_error(ErrorCode::kInvalidInput,
                        "RoCE plan after the loss: switch " + std::to_string(s) + " is another node than before");
    }
  }
  plan.hops_ = HopTable::build(g);
  plan.min_hop_ = EcmpTable::build(g, plan.hops_);
  plan.switches_ = switches_;
  std::vector<std::uint32_t> asn(n);
  for (SwitchIndex s = 0; s < n; ++s) {
    SwitchPlan& sp = plan.switches_[s];
    asn[s] = sp.asn;
    sp.routes.clear();
    std::erase_if(sp.interfaces, [&](const Interface& itf) {
      return g.peer_switch(s, itf.port) != itf.peer || g.peer_port(s, itf.port) != itf.peer_port;
    });
  }
  std::size_t gone = 0;
  for (const HostPlan& h : hosts_) {
    if (g.peer_node(h.leaf, h.leaf_port) != h.ca || g.peer_port(h.leaf, h.leaf_port) != h.port) {
      ++gone;
      continue;
    }
    plan.host_by_port_[(static_cast<std::uint64_t>(h.ca) << 8) | h.port] =
        static_cast<std::uint32_t>(plan.hosts_.size());
    plan.hosts_.push_back(h);
  }
  if (gone) {
    plan.notes_.push_back(std::to_string(gone) + " host port(s) lost their cable: no address is reachable there");
  }
  install_routes(plan, asn);
  note_own_as_rule(plan);
  return plan;
}

}  // namespace smd::roce
