// Switch graph and min-hop table: the compact, index-based view of a Topology that engines, the
// verifier and the quality report work on. Everything here is addressed by dense switch index
// (0..num_switches()-1, in Topology::switches() order), never by GUID or map lookups, so a fabric of a
// few thousand switches and tens of thousands of LIDs is handled in flat arrays.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// Dense switch index; kNoSwitch marks "not a switch" / "no switch here".
using SwitchIndex = std::uint32_t;
inline constexpr SwitchIndex kNoSwitch = 0xFFFFFFFFu;

/// Per switch, per port: what the cable leads to. Ports of switch s occupy the flat slots
/// port_base(s) .. port_base(s) + num_ports(s) (port 0 included, never cabled), so a (switch, port) pair
/// is also a unique directed-channel id usable as an array index.
class SwitchGraph {
 public:
  /// Index the switches of `topo` (O(nodes + ports)). Self-cabled ports are treated as uncabled.
  static SwitchGraph build(const Topology& topo);

  std::size_t num_switches() const { return nodes_.size(); }
  /// NodeIndex of switch s.
  NodeIndex node(SwitchIndex s) const { return nodes_[s]; }
  /// Switch index of a node, kNoSwitch for CAs, routers and out-of-range indices.
  SwitchIndex index_of(NodeIndex n) const { return n < index_of_.size() ? index_of_[n] : kNoSwitch; }
  /// NumPorts of switch s (physical ports; valid port numbers are 1..num_ports, plus 0).
  PortNum num_ports(SwitchIndex s) const { return static_cast<PortNum>(base_[s + 1] - base_[s] - 1); }
  /// First flat slot of switch s (its port 0).
  std::uint32_t port_base(SwitchIndex s) const { return base_[s]; }
  /// Total number of flat (switch, port) slots.
  std::uint32_t num_slots() const { return base_.empty() ? 0 : base_.back(); }
  /// Flat slot of (s, p); p must be <= num_ports(s).
  std::uint32_t slot(SwitchIndex s, PortNum p) const { return base_[s] + p; }
  /// Switch at the far end of (s, p), kNoSwitch when the port is uncabled or leads to a CA/router.
  SwitchIndex peer_switch(SwitchIndex s, PortNum p) const { return peer_sw_[base_[s] + p]; }
  /// Node at the far end of (s, p) (switch or not), kNoNode when uncabled.
  NodeIndex peer_node(SwitchIndex s, PortNum p) const { return peer_node_[base_[s] + p]; }
  /// Port number at the far end of (s, p) (meaningless when uncabled).
  PortNum peer_port(SwitchIndex s, PortNum p) const { return peer_port_[base_[s] + p]; }
  /// Switch-to-switch ports of s as (port, peer switch), in port order: the adjacency list for BFS.
  struct Link {
    PortNum port;
    SwitchIndex peer;
  };
  std::span<const Link> links(SwitchIndex s) const {
    return {links_.data() + link_base_[s], links_.data() + link_base_[s + 1]};
  }
  /// Number of directed switch-to-switch channels (each cable between switches counts twice).
  std::size_t num_switch_channels() const { return links_.size(); }

 private:
  std::vector<NodeIndex> nodes_;
  std::vector<SwitchIndex> index_of_;
  std::vector<std::uint32_t> base_;  // size S+1
  std::vector<SwitchIndex> peer_sw_;
  std::vector<NodeIndex> peer_node_;
  std::vector<PortNum> peer_port_;
  std::vector<std::uint32_t> link_base_;  // size S+1
  std::vector<Link> links_;
};

/// Where the packets for one LID leave the fabric: the switch that delivers them and the port it uses
/// (0 for the switch's own LID, the CA-facing port for a CA LID). sw == kNoSwitch when the LID is
/// unassigned or its port is not cabled to a switch (nothing can route to it).
struct LidTarget {
  SwitchIndex sw = kNoSwitch;
  PortNum port = 0;
};

/// LidTarget of one port: (the switch, 0) for any port of a switch (its LIDs address port 0), (the switch it
/// is cabled to, that switch's port) for a CA or router port; sw == kNoSwitch when the port does not exist,
/// has no cable or is cabled to something other than a switch. O(1).
LidTarget port_target(const Topology& topo, const SwitchGraph& graph, NodeIndex node, PortNum port);

/// LidTarget of every LID 0..lids.max_lid() (index = LID): port_target of its owner. O(max LID).
std::vector<LidTarget> lid_targets(const Topology& topo, const SwitchGraph& graph, const LidMap& lids);

/// Connected component id per switch over switch-to-switch cables (ids dense from 0). O(S + L).
std::vector<std::uint32_t> switch_components(const SwitchGraph& graph);

/// Hop distance over switch cables from the nearest of `starts`, per switch; kNoDistance where unreachable.
inline constexpr std::uint32_t kNoDistance = 0xFFFFFFFFu;
std::vector<std::uint32_t> switch_distances(const SwitchGraph& graph, const std::vector<SwitchIndex>& starts);

/// Minimum switch-to-switch hop counts (BFS over switch cables from every switch), one byte per
/// ordered pair: S=3,000 switches take 9 MB. Bit-parallel BFS, 64 sources per pass: O(S/64 * diameter *
/// (S + L)) word operations, batches spread over the available hardware threads.
class HopTable {
 public:
  /// Hop count meaning "not reachable" (also used when a path would exceed 254 hops).
  static constexpr std::uint8_t kUnreachable = 0xFF;

  /// BFS from every switch of `graph`. `threads` = 0 picks std::thread::hardware_concurrency().
  static HopTable build(const SwitchGraph& graph, unsigned threads = 0);

  std::size_t num_switches() const { return n_; }
  /// Minimum number of switch-to-switch cables from switch a to switch b (0 when a == b).
  std::uint8_t hops(SwitchIndex a, SwitchIndex b) const { return hops_[static_cast<std::size_t>(a) * n_ + b]; }
  /// Row a: hops from a to every switch.
  std::span<const std::uint8_t> row(SwitchIndex a) const {
    return {hops_.data() + static_cast<std::size_t>(a) * n_, n_};
  }

 private:
  std::size_t n_ = 0;
  std::vector<std::uint8_t> hops_;
};

/// Run fn(first, last) over [0, count) split into contiguous chunks on up to `threads` threads
/// (0 = hardware concurrency), each chunk at least `grain` items (below that, thread start-up costs more
/// than the work). Chunks must write disjoint data. Used for per-switch and per-LID work.
void parallel_for_chunks(std::size_t count, unsigned threads,
                         const std::function<void(std::size_t first, std::size_t last)>& fn, std::size_t grain = 128);

/// As parallel_for_chunks, but the threads take `grain`-sized ranges from a shared counter until none is
/// left, so items of uneven cost still keep every thread busy (static halves left one thread routing a
/// fat tree's top-level switch LIDs alone). fn runs once per range: its per-call set-up must be cheap.
void parallel_for_dynamic(std::size_t count, unsigned threads,
                          const std::function<void(std::size_t first, std::size_t last)>& fn, std::size_t grain);

}  // namespace smd
