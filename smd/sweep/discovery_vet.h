// Checks on a discovered fabric that need the whole sweep, run by discover_fabric() before anything is
// assigned or written: what the fabric reports must hang together, and what does not is left out rather
// than believed, so no forwarding table is ever computed from a cable or a switch that is not real.
#pragma once

#include "smd/sweep/discovery.h"

namespace smd {

/// Vet `d` in place (`d.topo` is replaced by the vetted copy and the per-node vectors follow it):
///  - a cable whose two ends disagree (either end's PortInfo shows the port Down or in no valid state,
///    or the ends report a different LinkWidthActive / LinkSpeedActive) is left out;
///  - a switch whose SwitchInfo reports LinearFDBCap 0 is left out (it cannot hold a unicast route),
///    unless it is the SM's own node;
///  - then every node no longer reachable from the SM's node (through switches; a CA does not forward)
///    is left out.
/// Each removal becomes a SweepProblem naming the node GUID(s) and directed path(s). Cables whose ends'
/// PortInfo was not read are kept (the read failure is already a problem of its own).
void vet_discovered(ObservedFabric& d);

}  // namespace smd
