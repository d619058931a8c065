// The QoS plan of a sweep: the SL2VL tables (policy, and the routing layers when a VL-layered engine
// routed) and the VL arbitration of every port, decided from this sweep's fabric before anything is
// written.
#include <spdlog/spdlog.h>

#include "routing/verify/sl2vl_verify.h"
#include "smd/program/qos_plan.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

bool SweepRunner::plan_qos_phase(const SweepFabric& fabric, std::vector<SweepProblem>& problems) {
  desired_.sl2vl.reset();
  desired_.vlarb.clear();
  // The engine can use more than one layer only with QoS on (routing.options.data_vls is 1 otherwise),
  // so QoS off means nothing to program.
  if (!policy_.qos.enabled) return true;
  const Topology& topo = fabric.topo();
  const VlLayering* layering = desired_.tables ? desired_.tables->layering.get() : nullptr;
  auto plan = std::make_shared<const Sl2VlPlan>(topo, policy_.qos, layering);
  for (const std::string& w : plan->warnings()) spdlog::warn("sweep: QoS: {}", w);
  // Logged, not sweep problems: the fabric still works on the other SLs (OpenSM's default SL2VL maps
  // SL 8..14 past an 8-VL port's VLs and OpenSM folds them in silently). Sl2VlPlan::problems() keeps them.
  for (const std::string& line : summarize_problems(plan->problems())) spdlog::warn("sweep: QoS: {}", line);
  // A VL-layered routing is deadlock free only if every hop maps each route's SL to its layer's VL: the
  // tables about to be written are checked against the routes before anything (LFTs included) is written.
  if (layering != nullptr && (layering->layers() > 1 || layering->per_hop())) {
    if (Status st = verify_sl2vl_layers(topo, *desired_.lids, *desired_.tables, *plan); !st.ok()) {
      problems.push_back({ProblemCode::kNoRoute, 0, "0", "SLtoVLMappingTable", st.error().message});
      return false;
    }
  }
  desired_.sl2vl = std::move(plan);
  desired_.vlarb = plan_vlarb(topo, policy_.qos, vlarb_caps(fabric), enhanced_port0(fabric));
  return true;
}

}  // namespace smd
