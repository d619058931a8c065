// The Daemon's side of the congestion-control manager (smd/cc): which sweeps hand it the fabric.
#include <spdlog/spdlog.h>

#include "smd/cc/cc_target.h"
#include "smd/sm/daemon.h"

namespace smd {

void Daemon::cc_after_sweep(const SweepSummary& s) {
  if (!cc_) return;
  const CongestionControlPolicy& policy = policy_.congestion_control;
  const std::shared_ptr<const Topology> topo = runner_ ? runner_->topology() : nullptr;
  const bool want = policy.enabled && local_.state == mad::SmState::kMaster && !events_.stopping() && topo;
  if (!want) {
    if (cc_->running()) {
      cc_->stop();
      spdlog::info("congestion control: stopped");
    }
    return;
  }
  // Only a fabric that is up: CC MADs are LID-routed and need every hop's LFT and an Active path.
  if (!s.subnet_up) return;
  cc_->configure(policy);
  if (!cc_->running()) {
    cc_->start();
    spdlog::info("congestion control: programming switches and CAs, {} MADs in flight", policy.max_outstanding);
  }
  cc_->request_pass(cc_targets(*topo, runner_->lids(), NodeNames(policy_.node_names)));
}

}  // namespace smd
