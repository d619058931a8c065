#include "smd/state/routing_state_files.h"

#include <spdlog/spdlog.h>

#include "smd/state/ar_plan_json.h"
#include "smd/state/atomic_file.h"
#include "smd/state/ca_order_file.h"

namespace smd {

void RoutingStateFiles::write(const std::string& state_dir, const Topology& topo, const RoutingTables& tables) {
  if (!tables.ca_order.empty()) {
    ca_order_.save(state_dir, state_dir + "/ca-order", ca_order_text(topo, tables), write_file_atomic, "ca-order");
  }
  if (tables.adaptive) {
    if (auto st = write_ar_plan_file(state_dir + "/ar-plan.json", topo, tables); !st.ok()) {
      spdlog::error("ar-plan: {}", st.error().message);
    }
  }
}

}  // namespace smd
