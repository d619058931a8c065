// The last phase of a master sweep: links health.babbling_port disables, and those an operator (or a
// reload) enables again (smd/program/port_disable.h). Each request is sent every sweep until the daemon
// withdraws it: a port that did not take it, or was not found, is tried again by the next sweep.
#include <spdlog/spdlog.h>

#include "smd/program/port_disable.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

void SweepRunner::set_phys_state_requests(std::vector<PortKey> disable, std::vector<PortKey> enable) {
  disable_requests_ = std::move(disable);
  enable_requests_ = std::move(enable);
}

void SweepRunner::phys_state_phase(SmpBatch& batch, SweepFabric& fabric, std::vector<SweepProblem>& problems) {
  phys_state_outcome_ = {};
  if (disable_requests_.empty() && enable_requests_.empty()) return;
  phys_state_outcome_.enabled = set_port_phys_state(batch, fabric, enable_requests_, false, problems);
  phys_state_outcome_.disabled = set_port_phys_state(batch, fabric, disable_requests_, true, problems);
  spdlog::info("sweep: {} of {} links disabled, {} of {} enabled", phys_state_outcome_.disabled.size(),
               disable_requests_.size(), phys_state_outcome_.enabled.size(), enable_requests_.size());
}

}  // namespace smd
