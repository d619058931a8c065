// The multicast pass between sweeps (OpenSM's idle-time processing of marked MLIDs): the multicast
// manager (mcast_manager.h) programs the groups that changed on the last configuring sweep's fabric.
#include <spdlog/spdlog.h>

#include <utility>

#include "smd/sweep/phase_timer.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

McastPassSummary SweepRunner::multicast_pass() {
  McastPassSummary r;
  // sm.multicast false (OpenSM's disable_multicast): joins between sweeps program nothing either.
  if (!policy_.sm.multicast || !topo_ || !last_.topo || last_.topo != topo_ || !mcast_.rebuild_pending()) {
    r.skipped = true;
    return r;
  }
  const auto t0 = SweepClock::now();
  const mad::TransportStats before = transport_.stats();
  SmpBatch batch(io_, transport_);
  SweepFabric fabric{ObservedFabric(last_)};
  r.counts = mcast_.program(batch, fabric, routed_topo_ ? routed_topo_ : topo_, applied_.mft, r.problems, r.rebuilt);
  last_ = std::move(fabric).known();
  r.smps_sent = transport_.stats().sent - before.sent;
  r.ms = ms_since(t0);
  return r;
}

}  // namespace smd
