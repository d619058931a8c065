// ftree: fat-tree routing after Zahavi et al., "Optimized InfiniBand fat-tree routing for shift
// all-to-all communication patterns" (2010). On a full-bisection fat tree every shift permutation of the
// CAs in RoutingTables::ca_order is congestion free (max link load 1).
#pragma once

#include "routing/engines/ftree/ftree_options.h"
#include "routing/engines/engine.h"
#include "routing/engines/rooted_engine.h"

namespace smd {

/// Recognises the fat tree (recognise_fat_tree: levels, leaf order; declines other graphs), indexes the
/// CA ports leaf by leaf in leaf_order and port order (ca_order), then for every CA LID with index j:
///   - its spine path: from the destination leaf upwards, at level l the up-port with the fewest
///     destinations routed down it so far, ties going to d-mod-k digit (j / prod(up-ports below)) mod
///     up-ports. On a regular tree the two agree, so every down-link carries exactly one destination and
///     down paths never collide. Each spine switch routes the LID down the cable it was reached by;
///   - every switch outside the destination's subtree goes up, preferring a neighbour from which the
///     spine path is reached on a shortest route ("good"): traffic for a destination meets the same
///     spine from everywhere. Among good up-ports the digit port is taken when it is one, else the first;
///     when nothing is good (irregular trees) the digit port or a rotation of the shortest ones;
///   - every other ancestor of the destination leaf goes down, preferring a spine-path child.
/// LMC > 0: LID base+x adds x to every digit, so the 2^LMC LIDs of a port leave the leaf by different
/// up-ports and use different top switches. A leaf switch's own LID takes the route of its first CA
/// port's base LID, ending at port 0; other switch LIDs use up*/down* paths in level order (updn_paths),
/// with one valley switch for spine-to-spine routes. deadlock_free = true.
/// With routing.ftree.cn_guids / io_guids (ftree_node_lists.h) only the compute nodes make the leaves and
/// the CA order above; the other CA ports, on any switch, are routed after them (ftree_non_cn.h), I/O nodes
/// with up to max_reverse_hops down-then-up turns. When some route takes one, deadlock_free = false and a
/// note says how many: the verifier then reports whether the channel dependencies still have no cycle.
/// Errors: kDeclined (not a fat tree, or a switch that cannot reach a leaf going up then down, no compute
/// node left, a non-CN port a switch reaches only with more reverse hops than its credit),
/// kInvalidInput (empty LidMap, unknown root GUID). Cost O(leaves * cables + LIDs * switches).
class FatTreeEngine : public SectionEngine<FtreeOptions> {
 public:
  using SectionEngine::SectionEngine;
  Result<RoutingTables> compute(const Topology& topo, const LidMap& lids) const override;
};

}  // namespace smd
