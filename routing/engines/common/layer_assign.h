// DFSSSP's layering (Domke, Hoefler, Nagel, IPDPS 2011): put every route on a virtual layer so that each
// layer's channel-dependency graph is acyclic, which makes the routing deadlock free when every layer
// travels on its own VL (Dally & Seitz 1987).
//
// A route is (source switch, DLID): the switch path its LFTs give from that switch to the LID's owner.
// Every switch is a source of every LID it reaches, so switch-originated traffic is covered too. A route
// depends channel a -> channel b when it takes b right after a (delivery to a CA waits on nothing).
//
// The rule: every route starts on layer 0. While layer L has a cycle, take the first cycle a depth-first
// search finds, pick its dependency induced by the fewest routes of L (the first such in cycle order), and
// move every route of L that induces it to layer L+1. When L is acyclic, go on with L+1.
// Why it ends acyclic: moving routes only removes dependencies from L, so a removed cycle never returns,
// and the search never revisits a channel it finished (a finished channel reaches no cycle, and removing
// dependencies cannot make it reach one).
// Then, where the rule needed more than one layer and the routes are not too many, first fit (as LASH
// places paths: each route on the lowest layer it keeps acyclic) is tried too, and kept when it needs
// fewer layers; every layer stays acyclic either way.
// Cost: O(R * hops) to collect the routes, then per layer O(C + E + sum of the cycles' lengths + routes
// moved * hops), for R routes, C channels and E dependencies.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "routing/base/status.h"
#include "routing/engines/common/channels.h"
#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"
#include "routing/model/vl_layers.h"

namespace smd {

/// A layering and what it took.
struct LayerAssignment {
  VlLayering layering;             ///< layer of every (source switch, DLID) route, 0..layers-1
  std::uint8_t layers_needed = 1;  ///< layers the rule used; max_layers + 1 when it ran out (`exceeded`)
  bool exceeded = false;           ///< the rule needed more than max_layers layers; layering is then partial
  std::uint64_t routes = 0;        ///< (switch, LID) routes with at least one dependency
  std::uint64_t moves = 0;         ///< route moves to a higher layer, summed over all cycles broken
  std::uint64_t cycles_broken = 0;
  bool first_fit = false;  ///< the first-fit placement needed fewer layers than the rule and was kept
};

/// Layer the routes that `lft` (indexed by NodeIndex) gives from every switch of `graph` to every LID
/// 1..max_lid with a target (`targets`, lid_targets). A route whose walk does not deliver is an error
/// (kInternal: the LFTs are broken, naming the switch and LID). max_layers is 1..kMaxDataVls.
/// `allow_first_fit` false = the cycle-breaking rule only (a cheaper second opinion).
Result<LayerAssignment> assign_layers(const Topology& topo, const SwitchGraph& graph, const ChannelIndex& channels,
                                      const std::vector<LidTarget>& targets, const std::vector<Lft>& lft, Lid max_lid,
                                      std::uint8_t max_layers, bool allow_first_fit = true);

/// Routes (source switch, DLID) that first fit places on one layer together, in the order given: LASH
/// puts both directions of a switch pair on one layer.
using RouteGroup = std::vector<std::pair<SwitchIndex, Lid>>;

/// LASH's placement alone (Skeie et al., IPDPS 2002): every group of `groups` in turn (then every route
/// they leave out, alone, in (switch, LID) order; with no groups, every route alone in that order) on the
/// lowest layer it keeps acyclic, with no cap on the number of routes (the caller keeps them few: LASH
/// passes one LID per destination switch). Routes with the same channels land on the same layer: a layer
/// that refused one still closes the cycle for the next. A listed route with no dependency (at most one
/// cable) is not placed: it stays on layer 0, where it closes nothing. Same inputs, errors and result as
/// assign_layers; first_fit is true. Cost: per group, a search of the layer for each dependency it adds.
Result<LayerAssignment> assign_layers_first_fit(const Topology& topo, const SwitchGraph& graph,
                                                const ChannelIndex& channels, const std::vector<LidTarget>& targets,
                                                const std::vector<Lft>& lft, Lid max_lid, std::uint8_t max_layers,
                                                const std::vector<RouteGroup>& groups = {});

/// Spread the routes of each layer over the VLs `available` leaves spare (DFSSSP's use of spare VLs, which
/// lowers head-of-line blocking but changes no path): layer i of n gets available/n VLs (the first
/// available%n layers one more), and its routes go round-robin, in (switch, LID) order, over them. Any
/// subset of an acyclic layer is acyclic, so the result stays deadlock free. No-op when available <= layers.
void spread_layers(const Topology& topo, VlLayering& layering, std::uint8_t available);

}  // namespace smd
