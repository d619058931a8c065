// Fat-tree recognition for the ftree engine: levels from the CA-attached leaves (or from configured
// roots), the checks that make a switch graph a fat tree, and the leaf order that indexes the CAs.
#pragma once

#include <cstdint>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// A recognised fat tree. Level 0 = leaves (the switches with CAs), `top` = the spine level.
struct FatTreeLevels {
  std::vector<std::uint32_t> level;  ///< [switch] -> level
  std::uint32_t top = 0;
  std::vector<std::vector<SwitchGraph::Link>> up;    ///< [switch] -> cables to level + 1, port order
  std::vector<std::vector<SwitchGraph::Link>> down;  ///< [switch] -> cables to level - 1, port order
  /// Level-0 switches, grouped subtree by subtree: leaves that share a level-l subtree (connected through
  /// switches of level <= l) are consecutive, for every l, outermost level first; within a group by switch
  /// index. Indexing CAs in this order makes the index digits follow the tree (Zahavi et al. 2010).
  std::vector<SwitchIndex> leaf_order;
};

/// Recognise a fat tree. `sources[s]` = CA ports cabled to switch s that make it a leaf (ftree: compute nodes); `roots`
/// = configured top-level switch GUIDs (routing.ftree.roots), empty = levels are BFS distances from the CA-attached
/// switches. Declines (kDeclined, naming the switches) when: there are no CAs; the switch graph is disconnected; a
/// cable joins two switches whose levels do not differ by exactly one (a torus, a random graph, or CAs at several
/// levels all end here); a CA-attached switch is not at level 0 (with roots); a switch below the top has no up-link.
/// Errors: kInvalidInput for a root GUID that is not a switch of the fabric.
Result<FatTreeLevels> recognise_fat_tree(const Topology& topo, const SwitchGraph& graph,
                                         const std::vector<std::uint32_t>& sources, const std::vector<Guid>& roots);

}  // namespace smd
