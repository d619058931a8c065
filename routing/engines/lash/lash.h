// lash: layered shortest path routing (Skeie, Lysne, Theiss, IPDPS 2002), as OpenSM's `-R lash`. Every
// switch pair gets one shortest path (lash_paths.h), and the pairs are placed on virtual layers so that
// each layer's channel-dependency graph stays acyclic (Dally & Seitz 1987): a packet keeps its layer's
// SL, hence its VL, end to end, so each VL carries an acyclic set of dependencies and cannot deadlock.
// Shortest paths on any topology, deadlock free, at the price of VLs: a ring needs 2, a 4x4x4 torus a
// handful.
//
// The layering is DFSSSP's machinery (common/layer_assign.h) with LASH's placement: first fit, the
// switch pairs in GUID order as OpenSM takes them, both directions of a pair on the lowest layer that
// stays acyclic with them; where that needs more than one layer, each direction placed on its own is
// tried too and kept when it needs fewer (a ring of 6: 2 layers instead of 3). All LIDs behind one switch share its
// switch path, so one LID per destination switch is placed and the others take its layer: the SL is per switch pair, as
// in OpenSM (its path_sl answers routing_table[dst switch].lane). The SA hands that SL out in PathRecord and the SL2VL
// plan maps SL l to VL l, as for dfsssp.
#pragma once

#include <cstdint>

#include "routing/engines/engine.h"
#include "routing/engines/lash/lash_options.h"

namespace smd {

/// LFTs from LashPaths (a switch's own LID -> port 0, a CA cabled to it -> that port, unreachable ->
/// kNoPort) and tables.layering from first fit over the switch pairs. The layers must fit in the VLs
/// available (available_data_vls with the routing options' data_vls and options.max_vls); then
/// deadlock_free is true (per layer). With options.spread_vls the routes also spread over spare VLs.
/// Errors: kDeclined naming the layers needed and the VLs the fabric offers ("needs 3 virtual layers, the
/// fabric offers 1 data VL (qos.enabled is off ...)"), so the chain moves on; kInvalidInput for an empty
/// LidMap. Cost O(S^2 * depth) for the paths, then first fit over S^2 routes (a search of the layer per
/// new dependency).
class LashEngine : public SectionEngine<LashOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
