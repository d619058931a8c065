#include "smd/program/port_disable.h"

#include "mad/codec/port_info.h"
#include "smd/program/table_writer.h"

namespace smd {

namespace {

// Believes a write when the port reports the physical state asked for, and keeps the answer as what the
// port holds.
class PhysStateRecorder : public WriteRecorder {
 public:
  PhysStateRecorder(SweepFabric& fabric, bool disable) : fabric_(fabric), disable_(disable) {}
  void answered(const TableWrite& w, const mad::SmpData& reply, bool) override {
    const mad::PortInfo pi = mad::PortInfo::decode(reply);
    fabric_.acknowledge_port(w.node, w.port, pi);
    if ((pi.port_physical_state == kPhysStateDisabled) == disable_) done.push_back({w.guid, w.port});
  }
  void unanswered(const TableWrite&) override {}
  std::vector<PortKey> done;

 private:
  SweepFabric& fabric_;
  bool disable_;
};

}  // namespace

Result<PortKey> disable_end(const Topology& topo, const PortKey& babbling) {
  const std::optional<NodeIndex> n = topo.find(babbling.node_guid);
  if (!n || babbling.port == 0 || babbling.port > topo.node(*n).num_ports) {
    return make_error(ErrorCode::kInvalidInput, "port " + std::to_string(babbling.port) + " of node " +
                                                    format_guid(babbling.node_guid) + " is not in the fabric");
  }
  const Node& node = topo.node(*n);
  const Port& port = node.ports[babbling.port];
  PortKey end = babbling;
  NodeIndex end_node = *n;
  if (port.connected() && topo.node(port.peer).dr_path.size() < node.dr_path.size()) {
    end = {topo.node(port.peer).guid, port.peer_port};
    end_node = port.peer;
  }
  // The SM's own node reaches everything through its own port: that one stays up.
  if (end_node == topo.sm_node && end.port == topo.sm_port && !topo.node(end_node).is_switch()) {
    return make_error(ErrorCode::kInvalidInput, "port " + std::to_string(end.port) + " of node " +
                                                    format_guid(end.node_guid) + " is the SM's own port");
  }
  return end;
}

std::vector<TableWrite> plan_port_phys_state(const SweepFabric& fabric, const std::vector<PortKey>& ports, bool disable) {
  std::vector<TableWrite> plan;
  const Topology& topo = fabric.topo();
  for (const PortKey& key : ports) {
    const std::optional<NodeIndex> n = topo.find(key.node_guid);
    if (!n || key.port > topo.node(*n).num_ports) continue;
    const mad::PortInfo* held = fabric.port_info(*n, key.port);
    if (held == nullptr) continue;
    // kAnswered: PhysStateRecorder judges the answer.
    TableWrite& w = add_set(plan, *n, key.port, key.node_guid, fabric.port_path(*n, key.port), mad::attr::kPortInfo,
                            fabric.port_info_mod(*n, key.port), EchoRule::kAnswered);
    mad::PortInfo pi = *held;
    pi.client_reregister = false;
    pi.port_state = disable ? 1 : 0;
    pi.port_physical_state = disable ? kPhysStateDisabled : kPhysStatePolling;
    pi.encode(w.request.data);
  }
  return plan;
}

std::vector<PortKey> set_port_phys_state(SmpBatch& batch, SweepFabric& fabric, const std::vector<PortKey>& ports,
                                         bool disable, std::vector<SweepProblem>& problems) {
  const std::vector<TableWrite> plan = plan_port_phys_state(fabric, ports, disable);
  if (plan.empty()) return {};
  PhysStateRecorder recorder(fabric, disable);
  write_plan(batch, plan, recorder, problems);
  return std::move(recorder.done);
}

}  // namespace smd
