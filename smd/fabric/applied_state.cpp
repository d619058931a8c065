#include "smd/fabric/applied_state.h"

namespace smd {

void AppliedState::forget_beside_lft(Guid node_guid) {
  pkeys.forget(node_guid);
  qos.forget(node_guid);
  mft.forget(node_guid);
  port_fields.forget(node_guid);
}

void AppliedState::forget(Guid node_guid) {
  lft.forget(node_guid);
  forget_beside_lft(node_guid);
}

void AppliedState::forget_all() {
  lft.forget_all();
  mft.forget_all();
  pkeys.forget_all();
  qos.forget_all();
  port_fields.forget_all();
}

std::vector<Guid> AppliedState::forget_reset(const Topology* before, const SweepFabric& fabric) {
  const Topology& topo = fabric.topo();
  if (before != nullptr) {
    for (const Node& n : before->nodes()) {
      if (!topo.find(n.guid)) forget_beside_lft(n.guid);
    }
  }
  std::vector<Guid> reset;
  for (NodeIndex s : topo.switches()) {
    const Guid guid = topo.node(s).guid;
    const AppliedLft* acked = lft.lft(guid);
    const mad::SwitchInfo* held = fabric.switch_info(s);
    if (acked != nullptr && acked->top && held != nullptr && *acked->top != held->linear_fdb_top) {
      forget_beside_lft(guid);
      reset.push_back(guid);
    }
  }
  return reset;
}

}  // namespace smd
