// LASH's paths (Skeie, Lysne, Theiss, "Layered Shortest Path (LASH) Routing in Irregular System Area
// Networks", IPDPS 2002): one shortest path per ordered switch pair, chosen as OpenSM's osm_ucast_lash.c
// chooses them, so that the two engines' tables can be compared on one fabric.
//
// The rule: take the switches as roots in increasing node GUID order (OpenSM's switch table order). From
// each root, a breadth-first tree (neighbours in port order; a neighbour is reached over its lowest port).
// Every switch v of the tree routes to each switch d below it through the child on the way to d, unless
// an earlier root already fixed v's route to d. A tree path from the root is shortest, and so is every
// piece of it, so each route is a shortest path; the root s itself fixes whatever was left of s's routes,
// so every pair in one component gets one.
#pragma once

#include <cstddef>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// The next hop of every ordered switch pair.
class LashPaths {
 public:
  /// Paths of every pair of `graph`, by the rule above. O(S * (S * depth + L)) for S switches, L links and
  /// the trees' depth; S * S bytes.
  LashPaths(const Topology& topo, const SwitchGraph& graph);

  /// Port of switch s towards switch d; kNoPort when d == s or d is in another component.
  PortNum port(SwitchIndex s, SwitchIndex d) const { return next_[static_cast<std::size_t>(s) * n_ + d]; }
  /// The switches in increasing node GUID order: the roots' order, and the order LASH places pairs in.
  const std::vector<SwitchIndex>& by_guid() const { return by_guid_; }

 private:
  std::size_t n_ = 0;
  std::vector<SwitchIndex> by_guid_;
  std::vector<PortNum> next_;  // [s * n + d]
};

}  // namespace smd
