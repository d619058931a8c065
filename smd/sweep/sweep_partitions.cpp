// The partition plan of a sweep and who gets ClientReregister: what the SM wants of P_Key tables and of
// the clients' SA registrations, decided from this sweep's fabric before anything is written.
#include <spdlog/spdlog.h>

#include "smd/sweep/sweep_runner.h"

namespace smd {

std::shared_ptr<const PartitionPlan> SweepRunner::plan_partitions_phase(const SweepFabric& fabric) const {
  const Topology& topo = fabric.topo();
  PartitionCaps caps;
  caps.partition_cap.resize(topo.size(), 0);
  caps.enforcement_cap.resize(topo.size(), 0);
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    caps.partition_cap[n] = fabric.observed().nodes[n].node_info.partition_cap;
    if (const mad::SwitchInfo* si = topo.node(n).is_switch() ? fabric.switch_info(n) : nullptr) {
      caps.enforcement_cap[n] = si->partition_enforcement_cap;
    }
  }
  // The default partition always exists and the SM port is always a full member of it (IBA 10.9.1.2).
  const PartitionsSpec spec = with_default_partition(policy_.partitions);
  auto plan = std::make_shared<const PartitionPlan>(
      plan_partitions(topo, spec, topo.sm_node, topo.sm_port, caps, desired_.partitions.get()));
  // A partition added to the policy turns every other port into a limited member of the default one:
  // right by the rules, and worth a line where it happens.
  if (auto change = default_membership_change(desired_.partitions.get(), *plan)) spdlog::info("partitions: {}", *change);
  return plan;
}

void SweepRunner::forget_absent_reregistered(const Topology& topo) {
  if (reregistered_.ports.empty()) return;
  std::unordered_set<Guid> present;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    for (const Port& port : topo.node(n).ports) {
      if (port.guid != 0) present.insert(port.guid);
    }
  }
  const std::size_t gone = std::erase_if(reregistered_.ports, [&](Guid g) { return !present.contains(g); });
  if (gone > 0) spdlog::debug("sweep: {} endports left the subnet; they re-register when they return", gone);
}

std::unordered_set<Guid> SweepRunner::reregister_set(const Topology& topo, Lid sm_lid) {
  if (sm_lid != reregistered_.sm_lid) {
    // Clients send traps and SA queries to MasterSMLID: when it moves, every one of them re-registers.
    if (!reregistered_.ports.empty()) spdlog::info("sweep: MasterSMLID is now {}: every client re-registers", sm_lid);
    reregistered_.ports.clear();
    reregistered_.sm_lid = sm_lid;
  }
  std::unordered_set<Guid> out;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = node.is_switch() ? 0 : 1; p <= (node.is_switch() ? 0 : node.num_ports); ++p) {
      const Guid g = node.ports[p].guid;
      if (g != 0 && !reregistered_.ports.contains(g)) out.insert(g);
    }
  }
  return out;
}

}  // namespace smd
