// Light sweep (OpenSM's term): between heavy sweeps, ask every known switch for SwitchInfo and look at
// PortStateChange (IBA 14.2.5.4), which a switch sets when any of its ports changes state. One SMP per
// switch; a set bit, a switch that does not answer, or an unknown fabric means a heavy sweep is due.
// A switch that is gone, or cut off, leaves PortStateChange set on a neighbour; one that does not answer
// while no neighbour saw a change has most likely lost an SMP, so it is asked again before it counts.
#pragma once

#include <string>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/model/topology.h"

namespace smd {

struct LightSweepResult {
  bool change = false;  ///< a heavy sweep is due
  std::string reason;   ///< first reason found ("PortStateChange on 0x... (DR 0,1)")
  unsigned switches_polled = 0;
  unsigned asked_again = 0;  ///< SwitchInfo Gets repeated for switches that did not answer
};

/// Poll SwitchInfo of every switch of `topo` along its directed path. A switch that does not answer
/// (after the transport's retries) is asked again up to `rounds` more times; only one that never
/// answers, or a PortStateChange, makes a heavy sweep due.
LightSweepResult light_sweep(SmpBatch& batch, const Topology& topo, unsigned rounds = 0);

}  // namespace smd
