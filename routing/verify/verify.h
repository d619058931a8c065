// The one verifier every routing result passes before it is programmed: follows the LFTs from every
// switch to every LID in use, checks LinearFDBTop against the LIDs and LinearFDBCap, and builds the
// channel-dependency graph (Dally & Seitz 1987: routing on one VL is deadlock free iff it is acyclic).
#pragma once

#include <cstdint>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// What the verifier saw; figures an operator wants next to "ok".
struct VerifyReport {
  std::size_t switches = 0;         ///< switches whose LFT was checked
  std::size_t lids = 0;             ///< LIDs in use that some switch can reach (routed LIDs)
  std::size_t unroutable_lids = 0;  ///< LIDs whose port is not cabled to a switch (nothing can route them)
  std::uint64_t routes = 0;         ///< (switch, LID) routes followed to their owner
  bool deadlock_free = false;       ///< channel-dependency graph over all routes is acyclic
  /// The same, counting only routes that packets injected by CAs take (to any LID). Switch-originated
  /// traffic between switch LIDs is what often breaks the full graph (e.g. minhop on a fat tree routes
  /// spine-to-spine down and up again); this figure says whether host traffic alone is safe.
  bool ca_deadlock_free = false;
  std::size_t cdg_channels = 0;  ///< directed switch-to-switch channels with an outgoing dependency
  std::uint64_t cdg_edges = 0;   ///< distinct channel -> channel dependencies
  /// Hops = cables from source CA port to destination CA port (2 for two hosts on one leaf), over
  /// ordered pairs of distinct CA ports (base LIDs) that can reach each other.
  std::uint64_t ca_pairs = 0;
  unsigned max_hops = 0;
  double mean_hops = 0.0;
  /// CA LIDs (LMC LIDs included) routed out of each switch up-port. An up-port leads to a switch farther
  /// from the CAs (BFS level from the switches that have CAs). Zero ports -> all three are 0.
  std::size_t up_ports = 0;
  std::uint32_t up_port_lids_max = 0;
  std::uint32_t up_port_lids_min = 0;
  /// Largest (max - min) of CA LIDs across the up-ports of one switch: 0 or 1 is a perfect spread.
  std::uint32_t up_port_lids_worst_spread = 0;
};

/// Check `tables` against `topo` and `lids`:
///   - an LFT for every switch, top() >= lids.max_lid() and top() < lft_cap (when lft_cap != 0);
///   - from every switch, every LID whose owner is cabled to a switch in the same component reaches the
///     owner: each hop's port is cabled and leads to a switch, port 0 only at the LID's own switch, the
///     last switch uses the port cabled to the owning CA port, no kNoPort (black hole), no loop;
///   - if `require_deadlock_free`, the channel-dependency graph of all those routes is acyclic: every
///     switch is a source (switch-originated and switch-LID traffic included), not only CA-injected flows.
/// Errors: kVerifyFailed, naming the switch GUID, its DR path (format_dr_path) and the LID of the first
/// problem (lowest LID), plus the count of failing routes; kInvalidInput if `tables.lft` is too short.
/// Cost O(S * LIDs) with memoised walks (a verified (switch, LID) is never walked twice), spread over
/// all hardware threads; memory O(S * 64 + S * ports).
Result<VerifyReport> verify_tables(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                   bool require_deadlock_free);

}  // namespace smd
