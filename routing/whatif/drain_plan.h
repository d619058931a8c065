// What-if drain (issue 46, item 3): what taking switches or cables out of routing would do, computed on
// the model alone, without touching a fabric. `smd plan --drain` calls it offline; the daemon's
// `smctl what-if drain` calls it with the tables it has programmed (smd/sm/what_if_job.h).
//
// The drained fabric is the one health isolation routes on (routing/isolation): the drained cables are
// gone from the Topology routing sees, links stay up and every LID is kept (the same LidMap). A drained
// switch loses every cable, CA cables included: it still owns its LID but forwards nothing, so the CAs
// behind it lose their paths (and one another). The engine chain and its verifier then route that fabric.
//
// The tables after are the ones the daemon's routing phase would program: both ask route_after_change
// (routing/chain/route_after_change.h). With `minimal_repair` (routing.repair: minimal, the default) the
// local repair of routing/verify/local_repair.h when it accepts, else the chain's fresh tables (ftree
// retried with the top switches of `before` as roots when it declines) with every route of `before` that
// still delivers kept (repair_tables), verified whole and dropped for the fresh ones when that fails or CA
// traffic would lose deadlock freedom the fresh tables promise; without it, the chain's fresh tables.
//
// What is reported, before (the tables given) and after:
//   - lost pairs: ordered pairs (src, dst) of distinct CA ports with a base LID whose packets arrive
//     following the before tables from src's switch to some LID of dst, and arrive for none of dst's LIDs
//     after. A leaf with h CAs drained out of N: h*(N-h) pairs each way plus h*(h-1) among its own CAs.
//   - cut-off CA ports: those that lose every path they had (as source and as destination);
//   - partitions whose members lose each other (pairs that may talk by IBA 10.9.3 P_Key matching, in the
//     policy's plan on the fabric before), and the groups they pre-create (IPoIB broadcast, groups:);
//   - the routing-quality figures (routing/quality: shift and random-permutation max link load) and
//     deadlock freedom by the verifier's channel-dependency graph, before and after;
//   - the LFT blocks a repair would write: 64-entry blocks (IBA 14.2.5.10) that differ between the two
//     tables of each switch, entries past a table's top reading as 0xFF.
//
// Cost: one engine chain run and its verification, two quality reports (routing/quality/report.h), and the
// pair check: O(LIDs * switches-with-CAs * hops) walks per side plus O(N^2) bit tests; memory O(switches *
// N / 8). On the 1728-host 3-level tree, well under a second (docs/operations.md has the figures).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/chain/registry.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/partitions/partition_spec.h"
#include "routing/quality/report.h"
#include "routing/whatif/drain_target.h"

namespace smd {

/// How the drained fabric is routed and measured.
struct DrainOptions {
  std::vector<std::string> chain;  ///< routing.engines, in order
  RoutingOptions routing;          ///< routing options the engines read
  /// Added to verification on the drained fabric (the planner: its SL2VL check), given that fabric's
  /// Topology; may be empty.
  std::function<Status(const Topology&, const RoutingTables&)> extra_check;
  QualityOptions quality;  ///< for both quality reports
  /// The policy's partitions; null = partitions not reported. Planned on the fabric before the drain with
  /// the SM's port (Topology::sm_node/sm_port) as SELF.
  const PartitionsSpec* partitions = nullptr;
  std::size_t listed = 10;  ///< lost pairs, cut-off ports and switches listed at most (counts are whole)
  /// The verifier's report on the tables before, when the caller has one (the chain's); null = verified here.
  const VerifyReport* verified_before = nullptr;
  /// routing.repair minimal: keep what still delivers, as the daemon's sweep does (header comment).
  bool minimal_repair = true;
};

/// One CA port: where it is and its base LID.
struct DrainEndpoint {
  NodeIndex node = kNoNode;
  PortNum port = 0;
  Lid lid = 0;
};

/// An ordered CA pair that would lose every path.
struct LostPair {
  DrainEndpoint src;
  DrainEndpoint dst;
};

/// LFT blocks of one switch that differ between before and after.
struct SwitchBlockChange {
  NodeIndex node = kNoNode;
  unsigned blocks = 0;
  Lid top_before = 0;  ///< LinearFDBTop before and after
  Lid top_after = 0;
};

/// A partition some of whose members would lose each other.
struct PartitionImpact {
  std::string name;
  PKeyBase pkey = 0;
  std::uint64_t lost_pairs = 0;                     ///< lost pairs whose two ports share this P_Key
  std::vector<std::array<std::uint8_t, 16>> mgids;  ///< the groups it pre-creates
};

/// Everything the what-if found (see the header comment for each figure's definition).
struct DrainReport {
  std::vector<DrainPart> parts;
  std::size_t cables_drained = 0;  ///< distinct cables taken out (a switch's and named cables, counted once)
  std::string engine_after;        ///< the engine whose tables the chain chose on the drained fabric
  /// How the tables after were made: "local repair", "minimal repair" (fresh + kept routes) or "fresh
  /// tables" (with the reason when a repair was tried and declined or rejected).
  std::string made_by;
  std::uint64_t entries_kept = 0;      ///< (switch, LID) entries a repair kept from before
  std::uint64_t entries_repaired = 0;  ///< entries a repair routed again
  std::vector<ChainAttempt> declined;
  std::string warning;         ///< the chain's warning on the drained fabric, if any
  /// Parts named that add nothing to the others: "'CABLE' is a cable of switch 'SWITCH' (drained with it)",
  /// one per such cable, in the order named (drain_overlaps).
  std::vector<std::string> overlaps;
  RoutingTables tables_after;  ///< the chain's tables on the drained fabric: what a repair would program

  std::size_t endpoints = 0;           ///< CA ports with a base LID
  std::uint64_t reachable_before = 0;  ///< ordered pairs with a path before
  std::uint64_t reachable_after = 0;   ///< the same after
  std::uint64_t lost_pairs = 0;        ///< reachable before and not after
  std::uint64_t gained_pairs = 0;      ///< not reachable before, reachable after (normally 0)
  std::vector<LostPair> first_lost;    ///< the first `listed`, by source LID then destination LID
  std::uint64_t cut_off = 0;           ///< CA ports left with no path to or from any other
  std::vector<DrainEndpoint> first_cut_off;
  bool sm_cut_off = false;  ///< the SM's own port (Topology::sm_node/sm_port) is among them

  QualityReport quality_before;
  QualityReport quality_after;
  bool deadlock_free_before = false;
  bool deadlock_free_after = false;
  bool ca_deadlock_free_before = false;
  bool ca_deadlock_free_after = false;

  std::uint64_t lft_blocks = 0;                 ///< total LFT blocks to write
  std::size_t switches_changed = 0;             ///< switches with at least one
  std::vector<SwitchBlockChange> most_changed;  ///< the `listed` switches with the most blocks, most first

  std::vector<PartitionImpact> partitions;  ///< only partitions with lost pairs, in policy order

  double route_ms = 0;    ///< routing the drained fabric: repair and/or engine chain, verification included
  double quality_ms = 0;  ///< both quality reports
  double pairs_ms = 0;    ///< lost pairs, partitions and LFT blocks
};

/// The Topology routing would see with `parts` drained (header comment), indexes unchanged; `cables` is set
/// to the number of distinct cables taken out.
Topology drained_topology(const Topology& topo, std::span<const DrainPart> parts, std::size_t& cables);

/// Each cable of `parts` with an end on a switch that `parts` also names: "'CABLE' is a cable of switch
/// 'SWITCH' (drained with it)", in the order named. Not an error: the what-if drains the same cables either
/// way, and `smctl drain` of both keeps the cable drained after the switch is undrained, which may be
/// meant; the report says it so that a cable typed for another is noticed.
std::vector<std::string> drain_overlaps(std::span<const DrainPart> parts);

/// LFT blocks of 64 entries that differ between `before` and `after` (a table shorter than the other
/// reads 0xFF past its end): what a repair sends to that switch.
unsigned changed_lft_blocks(const Lft& before, const Lft& after);

/// The what-if: drain `parts` from `topo` (LIDs `lids`, routed as `before`), route with the chain and report.
/// Errors: the chain's (kVerifyFailed/kDeclined: no engine routes the drained fabric), the quality
/// report's, each with "drained fabric" or "before" as context; kInvalidInput when `before` has fewer
/// tables than the topology has nodes.
Result<DrainReport> what_if_drain(const Topology& topo, const LidMap& lids, const RoutingTables& before,
                                  std::span<const DrainPart> parts, const DrainOptions& options);

}  // namespace smd
