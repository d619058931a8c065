// torus-2QoS: OpenSM's routing for 2D/3D tori and meshes (torus-2QoS(8)). Dimension-order routing (x,
// then y, then z) over coordinates found from the configured geometry and seed (torus_coords.h); on a ring
// the shorter way, the way that does not wrap on a tie (OpenSM's ring_dir_idx). A path's SL has bit d set
// when, on the pristine torus, its shorter way along d wraps round the ring, i.e. crosses d's dateline
// (OpenSM's use_vl1; bit 3, the QoS level, is left 0). The SL2VL of a switch maps by OUTPUT port: a hop
// leaving along dimension d takes VL bit 0 = SL bit d, so on each ring the paths that cross the dateline
// use one VL and the others another; neither set closes the ring, and DOR turns only from lower to higher
// dimensions, so the virtual-channel graph is acyclic (Dally & Seitz 1987). The tables also give VL bit 1
// to a turn from a higher to a lower dimension (by INPUT port: OpenSM's tables for its early turns round a
// failed switch; smd's routes never make one) and VL bit 2 to the QoS level, each only when the switches
// operate enough data VLs (2, 4, 8), as OpenSM's sl2vl_entry; end ports get VL = the QoS bit.
//
// Failed links: a ring a failure breaks is routed the long way round (OpenSM's next_hop_path: the way
// that reaches the turning switch over cables that exist), with the SL of the pristine path, which is
// safe because a broken ring cannot close a cycle. A ring broken into two pieces is refused (kDeclined
// naming the ring). A failed switch (an empty grid position) is declined, naming the position: the early
// turn round it is not implemented.
#pragma once

#include "routing/engines/engine.h"
#include "routing/engines/torus_2qos/torus_2qos_options.h"

namespace smd {

/// LFTs by DOR over the placed switches (own LID -> port 0, a CA cabled to the switch -> its port);
/// among parallel cables to the next switch, the destination's CA port's rank at its switch (port order,
/// or port_order) modulo the cables, as OpenSM's round robin; tables.layering with each (source switch,
/// DLID)'s SL and per-hop SL2VL tables for every switch and every CA port cabled to one; deadlock_free
/// true. Errors: kDeclined when no geometry is configured, the switches cannot be placed, a position is
/// empty (a failed switch), a ring is broken in two, or the torus has a ring of 3 or more and the fabric
/// offers fewer than 2 data VLs; kInvalidInput for an empty LidMap. Cost O(S^2 * dims) for the paths (each
/// switch pair's first hop), O(S * LIDs) for the tables.
class Torus2QosEngine : public SectionEngine<Torus2QosOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
