// The last phase of a master sweep: links health.babbling_port disables, and those an operator (or a
// reload) enables again (smd/program/port_disable.h). Each request is sent every sweep until the daemon
// withdraws it: a port that did not take it, or was not found, is tried again by the next sweep.
#include <spdlog/spdlog.h>

#include "smd/program/port_disable.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

void SweepRunner::set_phys_state_requests(std::vector<PortKey> disable, std::vector<PortKey> enable) {
  phys_state_.disable = std::move(disable);
  phys_state_.enable = std::move(enable);
}

void SweepRunner::phys_state_phase(SmpBatch& batch, SweepFabric& fabric, std::vector<SweepProblem>& problems) {
  phys_state_.outcome = {};
  if (phys_state_.disable.empty() && phys_state_.enable.empty()) return;
  phys_state_.outcome.enabled = set_port_phys_state(batch, fabric, phys_state_.enable, false, problems);
  phys_state_.outcome.disabled = set_port_phys_state(batch, fabric, phys_state_.disable, true, problems);
  spdlog::info("sweep: {} of {} links disabled, {} of {} enabled", phys_state_.outcome.disabled.size(),
               phys_state_.disable.size(), phys_state_.outcome.enabled.size(), phys_state_.enable.size());
}

}  // namespace smd
