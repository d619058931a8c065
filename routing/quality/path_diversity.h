// Path diversity of LMC multipath and the size of adaptive-routing groups, measured on the tables as
// programmed: a CA port with LMC > 0 owns 2^LMC LIDs (IBA 7.11.1) and a sender that spreads traffic over
// them only gains if the LFTs send each LID along a different path.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/quality/report.h"

namespace smd {

/// Figures over ordered pairs (source CA port, destination CA port), distinct ports, both cabled to a
/// switch. A path is the sequence of switch out-ports a LID's packets take from the source's switch
/// (traced through the LFTs); the destination's 2^LMC LIDs give between 1 and 2^LMC distinct paths.
struct PathDiversityReport {
  unsigned lids_per_port = 1;           ///< largest 2^LMC among CA ports
  std::uint64_t pairs = 0;              ///< ordered CA port pairs whose every LID arrives
  std::uint64_t unreachable_pairs = 0;  ///< pairs with a LID the LFTs drop, loop or misdeliver
  unsigned min_distinct = 0;            ///< fewest distinct paths of a pair (0 when no pairs)
  double mean_distinct = 0.0;           ///< mean distinct paths per pair
  /// Pairs between whose switches at least 2^LMC (of the destination) shortest paths exist; min-hop
  /// paths counted per cable (parallel cables are distinct paths). On a fat tree every min-hop path
  /// between leaves goes up then down, so these are the shortest up*/down*-legal paths.
  std::uint64_t pairs_with_enough_paths = 0;
  std::uint64_t pairs_full = 0;  ///< of those, pairs whose 2^LMC LIDs take 2^LMC distinct paths
  double full_share = 1.0;       ///< pairs_full / pairs_with_enough_paths (1.0 when there are none)
  /// Up to 16 (source CA node, destination CA node) pairs that have enough shortest paths but fewer
  /// distinct LID paths: where the engine's LMC spreading falls short.
  std::vector<std::pair<NodeIndex, NodeIndex>> short_pairs;
  /// [size] -> number of (switch, CA LID) entries whose AR group has that many ports; index 0 unused.
  /// Empty when tables.adaptive is null.
  std::vector<std::uint64_t> ar_group_sizes;
};

/// Measure `tables`. Works for LMC 0 too: every pair then has one LID and one path, so the figures
/// follow from the number of pairs that arrive (a delivered LID proves a shortest path count >= 1).
/// `quality`, when given, must be compute_quality's report of the same tables: LMC 0 then reuses its
/// reachable_pairs instead of walking all pairs again. Errors: kInvalidInput when tables.lft is
/// shorter than the topology.
/// Cost: LMC 0: O(1) with `quality`, else all_to_all_loads (O(N * S)) over `threads` (0 = hardware
/// concurrency). LMC > 0: pairs are grouped by source switch (every CA on a switch sees the same switch
/// paths), so O(source switches * CA LIDs * hops) traces plus O(destination switches * (S + cables))
/// path counts. AR group sizes add O(S * CA LIDs) when tables.adaptive is set.
Result<PathDiversityReport> compute_path_diversity(const Topology& topo, const LidMap& lids,
                                                   const RoutingTables& tables, unsigned threads = 0,
                                                   const QualityReport* quality = nullptr);

/// Number of min-hop paths (per cable) from every switch to switch `dst` of `graph`, saturating at
/// 2^32 - 1; 0 where unreachable, 1 at dst. Index = SwitchIndex.
std::vector<std::uint32_t> count_shortest_paths(const SwitchGraph& graph, SwitchIndex dst);

}  // namespace smd
