// Up*/down* paths shared by the updn and ftree engines (Schroeder et al., "Autonet", 1991): a strict
// order on the switches orients every cable "up" (towards the switch earlier in the order) or "down".
// A route that never turns from a down-going cable onto an up-going one cannot close a cycle in the
// channel-dependency graph, so the routing is deadlock free on one VL. Everything here works per
// destination SWITCH, so a fabric of thousands of switches and tens of thousands of LIDs costs
// O(switches * cables) for the paths plus O(switches) per LID for the port choice.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"
#include "routing/model/topology.h"

namespace smd {

/// A strict total order of switches: a cable a->b goes up iff pos[b] < pos[a]. Built from a rank
/// (BFS distance from the roots, or a level) with ties broken by node GUID, so no two switches compare
/// equal and the "up" relation is acyclic.
struct UpDownOrder {
  std::vector<std::uint32_t> pos;   ///< [switch] -> position, 0 = highest
  std::vector<SwitchIndex> by_pos;  ///< switches from highest to lowest

  /// Cables of each switch split by direction (CSR, port order), so a pass that only follows up-going or
  /// only down-going cables touches half of them.
  std::vector<std::uint32_t> up_off, down_off;
  std::vector<SwitchGraph::Link> up_links, down_links;

  bool is_up(SwitchIndex from, SwitchIndex to) const { return pos[to] < pos[from]; }
  std::span<const SwitchGraph::Link> ups(SwitchIndex s) const {
    return {up_links.data() + up_off[s], up_links.data() + up_off[s + 1]};
  }
  std::span<const SwitchGraph::Link> downs(SwitchIndex s) const {
    return {down_links.data() + down_off[s], down_links.data() + down_off[s + 1]};
  }
};

/// Order switches by (rank[s], id[s], node GUID): `ids` ([switch] -> id, routing.updn.ids) breaks ties of
/// rank before the GUID does, lower first; empty = by GUID alone. rank (and ids when given) must be sized to
/// graph.num_switches().
UpDownOrder make_updown_order(const Topology& topo, const SwitchGraph& graph, const std::vector<std::uint32_t>& rank,
                              std::span<const std::uint64_t> ids = {});

/// Shortest legal up*/down* next hops of every switch towards one destination switch.
/// A switch that can reach the destination by down-going cables alone routes downwards only (a packet
/// that already went down must not go up again, and the LFT cannot tell how a packet arrived); every
/// other switch goes up to the neighbour with the shortest remaining legal distance.
class DestPaths {
 public:
  static constexpr std::uint32_t kInf = 0xFFFFFFFFu;

  /// Compute paths to `dst`. `allowed` (optional, [switch] -> 0/1) restricts which switches a path may use;
  /// `dst` must be allowed. O(switches + cables).
  void compute(const SwitchGraph& graph, const UpDownOrder& order, SwitchIndex dst,
               const std::vector<std::uint8_t>* allowed = nullptr);

  SwitchIndex dst() const { return dst_; }
  /// Legal hop count from s to the destination, kInf when none exists.
  std::uint32_t dist(SwitchIndex s) const { return dist_[s]; }
  /// Next-hop cables of s on a shortest legal path (port order); empty for dst and unreachable switches.
  std::span<const SwitchGraph::Link> candidates(SwitchIndex s) const {
    return {cand_.data() + cand_off_[s], cand_.data() + cand_off_[s + 1]};
  }
  /// Reachable switches other than dst, farthest first: upstream switches come before downstream ones.
  const std::vector<SwitchIndex>& farthest_first() const { return order_; }

 private:
  SwitchIndex dst_ = kNoSwitch;
  std::vector<std::uint32_t> dist_;
  std::vector<std::uint8_t> down_only_;
  std::vector<std::uint32_t> cand_off_;
  std::vector<SwitchGraph::Link> cand_;
  std::vector<SwitchIndex> order_;
  std::vector<SwitchIndex> queue_;
};

/// Chooses one out-port per switch for each LID among DestPaths candidates, balancing load.
/// Load of a channel = number of (source CA port, destination LID) flows routed over it so far; each LID
/// is routed switch by switch from the farthest upstream, so a switch knows how many CA flows actually
/// reach it for this LID and only those count (a spine that no leaf sends this LID to does not get it
/// counted). That is what spreads consecutive destinations of one leaf across the leaf's up-ports and,
/// at the next level, spreads the destinations an aggregation switch really receives across its
/// up-ports: on a k-ary n-tree it reproduces d-mod-k (Zahavi et al. 2010) instead of funnelling.
class UpDownBalancer {
 public:
  /// `sources[s]` = CA ports cabled to switch s (the flows that start there).
  UpDownBalancer(const SwitchGraph& graph, std::vector<std::uint32_t> sources);

  /// Route `lids` (all delivered by paths.dst(), at `deliver_ports[i]`) along `paths`: write the chosen
  /// port of every reachable switch into `tables.lft` (indexed by NodeIndex). `round` rotates ties so the
  /// 2^LMC LIDs of one port take different equal-cost ports. The result is the same as routing the LIDs
  /// one after the other (a switch's choices only touch its own port loads); the loop runs switch-major
  /// so each switch's candidate list is read once for the whole group.
  void route_lids(const DestPaths& paths, std::span<const Lid> lids, std::span<const PortNum> deliver_ports,
                  unsigned round, RoutingTables& tables);

  const std::vector<std::uint32_t>& sources() const { return sources_; }

  /// route_lids without the writes: every choice goes to write(switch, i, port), i indexing `lids`, the
  /// destination switch's delivery included. Defined (and instantiated) in updn_paths.cpp only.
  template <typename Write>
  void route_lids_to(const DestPaths& paths, std::span<const PortNum> deliver_ports, std::size_t m, unsigned round,
                     Write&& write);

 private:
  const SwitchGraph& graph_;
  std::vector<std::uint32_t> sources_;
  std::vector<std::uint64_t> load_;  // [flat slot]
  std::vector<std::uint32_t> flow_;  // [switch], per LID
  std::vector<std::uint32_t> spin_;  // [switch] rotation for switches no CA flow reaches
};

/// Give every switch of dst's component that has no legal path to the switch LID `lid` an entry, after
/// `legal` routed the others. Two local maxima of the up order (two spines of a fat tree) cannot reach
/// each other without one down->up turn, so such routes go down to `valley` (which must have a legal
/// path) through switches that have no legal path themselves, and turn there. Keeping every such turn
/// at one switch means a dependency chain that leaves the valley upwards only comes back down to it along
/// a route that turns above it back into its own subtree, which shortest fat-tree routes never do; the
/// verifier's cycle check is the final word. Switches that cannot reach `valley` that way join the
/// nearest switch that already has an entry. O(switches + cables).
void route_switch_lid_via_valley(const SwitchGraph& graph, const UpDownOrder& order, const DestPaths& legal,
                                 const std::vector<std::uint32_t>& component, SwitchIndex valley, Lid lid,
                                 RoutingTables& tables);

/// Route every switch LID of `targets` (entries with port 0): legal up*/down* paths balanced by an
/// UpDownBalancer over `sources`, then route_switch_lid_via_valley for switches without one. The valley
/// of a component is its first CA-attached switch (switch index order), or its lowest switch in `order`
/// when it has no CAs. Switch LIDs are independent of each other, so they are routed in fixed blocks of
/// 64 LIDs on all hardware threads, each block balanced on its own: the tables do not depend on the
/// thread count. Management traffic to switches is light, so per-block balance is enough. LIDs marked in
/// `routed` ([LID] != 0, shorter than targets = none marked) are the caller's and left untouched.
void route_switch_lids(const SwitchGraph& graph, const UpDownOrder& order, const std::vector<LidTarget>& targets,
                       const std::vector<std::uint32_t>& component, const std::vector<std::uint32_t>& sources,
                       RoutingTables& tables, std::span<const std::uint8_t> routed = {});

}  // namespace smd
