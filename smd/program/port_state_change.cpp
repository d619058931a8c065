#include "smd/program/port_state_change.h"

#include "smd/program/table_writer.h"

namespace smd {

namespace {

class SwitchInfoRecorder final : public WriteRecorder {
 public:
  explicit SwitchInfoRecorder(SweepFabric& fabric) : fabric_(fabric) {}
  void answered(const TableWrite& w, const mad::SmpData& reply, bool) override {
    fabric_.acknowledge_switch(w.node, mad::SwitchInfo::decode(reply));
  }
  void unanswered(const TableWrite&) override {}

 private:
  SweepFabric& fabric_;
};

}  // namespace

std::vector<TableWrite> plan_port_state_change_clear(const SweepFabric& fabric) {
  std::vector<TableWrite> plan;
  const Topology& topo = fabric.topo();
  for (NodeIndex s : topo.switches()) {
    const mad::SwitchInfo* held = fabric.switch_info(s);
    if (held == nullptr || !held->port_state_change) continue;
    const Node& sw = topo.node(s);
    TableWrite& w =
        add_set(plan, s, 0, sw.guid, mad::DrPath(sw.dr_path), mad::attr::kSwitchInfo, 0, EchoRule::kAnswered);
    mad::SwitchInfo si = *held;
    si.port_state_change = true;  // write 1 to clear (IBA 14.2.5.4)
    si.encode(w.request.data);
  }
  return plan;
}

unsigned clear_port_state_change(SmpBatch& batch, SweepFabric& fabric, std::vector<SweepProblem>& problems) {
  const std::vector<TableWrite> plan = plan_port_state_change_clear(fabric);
  SwitchInfoRecorder recorder(fabric);
  return write_plan(batch, plan, recorder, problems).sent;
}

}  // namespace smd
