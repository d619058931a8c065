// Tree quality: how evenly multicast groups share the fabric's switch-to-switch cables (the issue's "max
// group traffic on one link"). A group uses a cable when the mask of either switch at its ends contains
// the cable's port; each group counts once per cable. CA cables are left out: which groups cross a host's
// cable is fixed by its memberships, not by the trees. Works on any McastTables, including MFTs read back
// from a fabric another SM programmed, so two SMs' trees can be compared on one topology.
#pragma once

#include <cstdint>

#include "routing/mcast/mcast_tables.h"
#include "routing/model/topology.h"

namespace smd {

struct McastLinkLoad {
  std::size_t trees = 0;       ///< MLIDs with at least one switch on a tree
  std::size_t links = 0;       ///< switch-to-switch cables of the fabric
  std::size_t links_used = 0;  ///< cables at least one group uses
  std::uint32_t max_groups_per_link = 0;
  double mean_groups_per_used_link = 0.0;
};

/// Count the groups on every switch-to-switch cable of `topo`. Switches or ports of `tables` not in
/// `topo` are ignored. O(mask ports).
McastLinkLoad mcast_link_load(const Topology& topo, const McastTables& tables);

}  // namespace smd
