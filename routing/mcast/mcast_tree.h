// Multicast spanning trees: one loop-free tree per MLID over the switches of its members (IBA 10.5;
// OpenSM osm_mcast_mgr.c is the reference behaviour, not the algorithm).
//
// OpenSM roots each tree at the switch with the least maximum hop count to the member switches and, at
// every switch, sends each member's branch out of the FIRST least-hop port, so all groups of a fat tree
// land on the same spine and the same uplinks. Here every tree is still a shortest-path tree from a
// near-central root (the root minimises the maximum hop count to the member switches, as OpenSM's), but
// among the roots that tie, and among the equal least-hop links at every branch, the one carrying the
// fewest groups already placed wins (deterministic tie-break by a hash of MLID and link), so different
// groups use different spines and links.
//
// Construction, per group: members are grouped by the switch they hang off (a CA port's peer switch; a
// switch member's own switch). The tree covers the switch component holding most member ports; member
// ports elsewhere (another component, or no cable to a switch) are listed as unreachable. Member switches
// are attached in order of distance from the root: each walks towards the root over links that decrease
// the hop count by one, preferring a switch already on the tree, else the least-loaded link, and stops at
// the first switch on the tree. Every switch joins with exactly one parent link closer to the root, so
// the result is a tree (no switch is reached twice, no loop). Up to 8 tied roots are tried (fewest trees
// rooted there first); the tree whose busiest link carries the fewest groups wins.
//
// Cost per group: O(S * M) to find the roots (S switches, M member switches), then O(8 * M * d * ports)
// for the candidate trees (d = tree depth). The HopTable (S^2 bytes) is built once per builder.
#pragma once

#include <optional>
#include <vector>

#include "routing/base/status.h"
#include "routing/mcast/mcast_group.h"
#include "routing/mcast/mcast_tables.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

struct McastCandidate;
struct McastAttach;

class McastTreeBuilder {
 public:
  /// Index `topo` (switch graph, min-hop table, components). `topo` must outlive the builder.
  /// `threads` goes to HopTable::build (0 = hardware concurrency).
  explicit McastTreeBuilder(const Topology& topo, unsigned threads = 0);

  /// `previous` with the trees of `changed` recomputed (a group that only gained members keeps its tree and
  /// grows it); every other tree is kept as it is and the links it uses count as load. A group with no members is
  /// removed. Groups with fewer than 2 member ports get an entry with no switches (as OpenSM: no tree). `previous` must
  /// come from this topology or be checked with groups_to_rebuild() first. Errors (kInvalidInput, nothing computed): an
  /// MLID outside 0xC000-0xFFFE or listed twice, a member node out of range, a port beyond NumPorts, a switch member
  /// port other than 0.
  Result<McastTables> update(const McastTables& previous, const std::vector<McastGroupPorts>& changed) const;

  /// All of `groups` from scratch: update() over empty tables.
  Result<McastTables> build(const std::vector<McastGroupPorts>& groups) const { return update({}, groups); }

 private:
  // `previous`: the group's tree before, or null. When the group only gained members (joins), the new tree
  // keeps it and grows branches to the new member switches only: a join storm rewrites a few MFT blocks
  // per pass instead of reshuffling the whole tree.
  Result<McastTree> place(const McastGroupPorts& group, std::vector<std::uint32_t>& link_load,
                          std::vector<std::uint32_t>& root_load, const McastTree* previous) const;
  // place()'s steps. The member ports checked and attached to their switches; kInvalidInput names the
  // MLID and the bad member.
  Result<std::vector<McastAttach>> attach_members(const McastGroupPorts& group) const;
  // Up to kRootCandidates switches of component `comp` nearest to the farthest member switch, least
  // loaded with roots first.
  std::vector<SwitchIndex> root_candidates(const std::vector<SwitchIndex>& member_sw, std::uint32_t comp, Lid mlid,
                                           const std::vector<std::uint32_t>& root_load) const;
  // The tree from `root` to every member switch (from `kept` when it has that root), branch by branch.
  McastCandidate grow(SwitchIndex root, const std::vector<SwitchIndex>& member_sw, const McastCandidate* kept,
                      Lid mlid, const std::vector<std::uint32_t>& link_load) const;
  // A switch's parent link on the tree: a neighbour one hop closer to the root.
  struct Parent {
    SwitchIndex sw = kNoSwitch;
    PortNum port = 0;
    std::uint32_t load = 0;  // groups on the cable before this one
  };
  // cur's parent: a neighbour already on the tree if one is, else the least-loaded cable (MLID-mixed ties).
  Parent pick_parent(SwitchIndex cur, SwitchIndex root, const std::vector<char>& on, Lid mlid,
                     const std::vector<std::uint32_t>& link_load) const;
  // The chosen candidate's masks into `tree`, its links and root counted as load.
  void commit(const McastCandidate& chosen, const std::vector<McastAttach>& on_tree,
              std::vector<std::uint32_t>& link_load, std::vector<std::uint32_t>& root_load, McastTree& tree) const;
  // The previous tree as a Candidate (parents from its masks, by BFS from its root), when it is a
  // shortest-path tree of this fabric rooted in the group's component; nullopt otherwise.
  std::optional<McastCandidate> reuse(const McastTree& previous, std::uint32_t comp) const;
  // Canonical slot of the cable at (s, p): the lower flat slot of its two ends.
  std::uint32_t cable(SwitchIndex s, PortNum p) const;

  const Topology& topo_;
  SwitchGraph graph_;
  HopTable hops_;
  std::vector<std::uint32_t> component_;
};

/// The MLIDs among `groups` whose tree in `previous` no longer serves them on `topo` (after a topology
/// change, or joins and leaves): no tree yet, a different member set, members listed unreachable, or a
/// tree that fails check_mcast_tree() on `topo` (a cable or switch gone). Pass these to update(). MLIDs
/// of `previous` absent from `groups` are not listed: the caller removes those groups (no members).
std::vector<Lid> groups_to_rebuild(const Topology& topo, const McastTables& previous,
                                   const std::vector<McastGroupPorts>& groups);

}  // namespace smd
