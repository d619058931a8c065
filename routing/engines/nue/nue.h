// nue: deadlock-free routing on any topology within a given number of VLs, even one (Domke, Hoefler,
// Matsuoka, "Routing on the Dependency Graph: A New Approach to Deadlock-Free High-Performance Routing",
// HPDC 2016; OpenSM's `-R nue`). Where LASH and DFSSSP route first and then need as many layers as the
// routes' cycles demand, Nue fixes the layers first and routes inside each layer's channel dependency graph,
// refusing any dependency that would close a cycle: it never needs more VLs than it is given.
//
// What it computes, as OpenSM's implementation (without METIS) does:
//   1. The destination LIDs in increasing order go round robin onto k layers (k = routing.nue.max_vls capped
//      by the VLs the fabric offers, vl_budget.h). Switch LIDs are destinations only with include_switches;
//      otherwise they go on layer 0 after its CAs. A layer's LIDs travel on SL = VL = layer (VlLayering).
//   2. Per layer, escape paths (nue_escape.h): a spanning tree rooted at the switch most central to the
//      layer's destinations; their dependencies are put into the layer's CDG first.
//   3. Per destination LID of the layer, in order (CAs, then switches): a Dijkstra from its switch backwards
//      over the channels, each switch settled on the cheapest channel whose dependency onto the next hop's
//      channel keeps the CDG acyclic (nue_cdg.h). When some switch of the component cannot be settled (an
//      impasse), the destination's routes are dropped from the CDG and it takes its escape paths, which are
//      there already; otherwise its escape paths are taken out, leaving room for the next destinations.
//   4. Balancing as OpenSM's: every channel starts at weight (destination LIDs)^2; after each destination,
//      each channel on its routes gains the number of end nodes (cabled CAs plus the switch itself) of the
//      switches whose routes cross it.
// Every route stays on its destination's layer end to end and each layer's CDG is acyclic by construction:
// deadlock_free is true, and the verifier re-checks it from the tables.
#pragma once

#include "routing/engines/engine.h"
#include "routing/engines/nue/nue_options.h"

namespace smd {

/// LFTs of every switch for every LID 1..max_lid with a target (unreachable: kNoPort; a switch's own LID:
/// port 0; a CA cabled to it: that port) and tables.layering with one layer per destination subset, at most
/// the VLs available (available_data_vls with the routing options' data_vls and options.max_vls). It never
/// runs out of VLs, so it declines nothing a fabric can be; kInvalidInput for an empty LidMap. Cost per
/// destination LID O((S + C) log C) for the search plus the CDG checks (O(1) each when the order agrees).
class NueEngine : public SectionEngine<NueOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
