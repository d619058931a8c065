// dor: dimension-order routing on meshes and hypercubes, as OpenSM's `-R dor` (osm_ucast_mgr.c with
// is_dor, osm_switch_recommend_path). Paths are shortest, like minhop's, but instead of balancing over
// every equal-cost port a switch takes the first one in port order: on a mesh whose switches number
// their ports dimension by dimension (the X ports below the Y ports, as smd-fabric's mesh and torus do),
// that is the lowest dimension still to correct, so every path corrects X, then Y, then Z.
//
// Why that is deadlock free on a mesh (Dally & Seitz 1987): a packet only ever turns from a lower to a
// higher dimension, and within one dimension it keeps its direction (a min-hop path never reverses), so
// numbering channels by (dimension, direction, position) orders every dependency; the channel-dependency
// graph is acyclic. On a torus it is not: within one ring the shortest paths of different sources chain
// all the way round (any ring of 4 or more switches closes a cycle on one VL), so dor promises nothing
// (RoutingTables::deadlock_free false) and the verifier's report says which case a fabric is in.
// Hypercubes are meshes of size 2 in every dimension, so the mesh argument covers them.
#pragma once

#include "routing/engines/dor/dor_options.h"
#include "routing/engines/engine.h"

namespace smd {

/// For every switch s and every LID d:
///   - d is s's own LID -> port 0; d is a CA port cabled to s -> the port facing it;
///   - otherwise the ports of s whose neighbour switch is one hop closer to d's switch (min-hop, as
///     minhop), scanned in increasing port number (or in the switch's line of
///     routing.dor.port_search_ordering_file, OpenSM's dimension-to-port map): the first one's neighbour is
///     the next switch; among
///     the parallel cables to that neighbour, the one that carries the fewest CA LIDs so far (OpenSM
///     spreads only there, and does not count switch LIDs: port_profile_switch_nodes is off by default),
///     ties to the lowest port. LIDs in increasing order, or guid_routing_order's order;
///   - d unreachable from s -> kNoPort.
/// deadlock_free is false (see above). Never declines; kInvalidInput for an empty LidMap. O(S * S * ports
/// + S * LIDs), per switch on all threads.
class DorEngine : public SectionEngine<DorOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
