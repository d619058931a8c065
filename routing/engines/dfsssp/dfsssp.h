// sssp and dfsssp: globally balanced shortest paths (Hoefler, Schneider, Lumsdaine, HOTI 2009), and the
// same paths made deadlock free by virtual layers (Domke, Hoefler, Nagel, IPDPS 2011). For tori, random
// graphs and dragonflies, where up*/down* funnels traffic through its root.
#pragma once

#include <cstdint>

#include "routing/engines/dfsssp/dfsssp_options.h"
#include "routing/engines/engine.h"

namespace smd {

/// Balanced shortest paths (route_balanced_shortest_paths) and nothing else: deadlock_free is false and
/// layering null. Errors: kInvalidInput for an empty LidMap (nothing to route); never declines.
/// With options.guid_routing_order the listed ports' LIDs are routed first (destination_order); GUIDs the
/// fabric lacks are named in RoutingTables::notes. Likewise for dfsssp.
class SsspEngine : public SectionEngine<SsspOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

/// The sssp paths, then assign_layers over every (source switch, DLID) route. When that needs more than
/// one layer, the switch LIDs are also tried on up*/down* paths (ranked by height above the CA-attached
/// switches; host routes unchanged) and those tables are kept when they need fewer layers: on fat trees
/// the balanced routes between top switches turn down and up and would cost layers. The layers must fit in the
/// VLs available (available_data_vls with `data_vls` and options.max_vls); then tables.layering holds the
/// layer (SL = VL) of every route and deadlock_free is true (per layer). With options.spread_vls the
/// routes also spread over the spare VLs (spread_layers).
/// Errors: kDeclined when the layers needed exceed the VLs available ("needs 3 virtual layers, the fabric
/// offers 1 data VL (qos.enabled is off ...)"), so the chain moves on; kInvalidInput for an empty LidMap.
class DfssspEngine : public SectionEngine<DfssspOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
