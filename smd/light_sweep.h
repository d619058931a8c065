// Light sweep (OpenSM's term): between heavy sweeps, ask every known switch for SwitchInfo and look at
// PortStateChange (IBA 14.2.5.4), which a switch sets when any of its ports changes state. One SMP per
// switch; a set bit, a switch that does not answer, or an unknown fabric means a heavy sweep is due.
#pragma once

#include <string>
#include <vector>

#include "routing/topology.h"
#include "smd/discovery.h"
#include "smd/smp_batch.h"

namespace smd {

struct LightSweepResult {
  bool change = false;  ///< a heavy sweep is due
  std::string reason;   ///< first reason found ("PortStateChange on 0x... (DR 0,1)")
  unsigned switches_polled = 0;
};

/// Poll SwitchInfo of every switch of `topo` along its directed path.
LightSweepResult light_sweep(SmpBatch& batch, const Topology& topo);

/// Write PortStateChange = 1 (which clears it) on every switch whose SwitchInfo, as read in `d`, had it
/// set, so the next light sweep sees only new changes. Returns the number of Sets sent.
unsigned clear_port_state_change(SmpBatch& batch, Discovered& d, std::vector<SweepProblem>& problems);

}  // namespace smd
