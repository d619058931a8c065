// Routing quality on the tables as programmed, exactly as DESIGN.md ("Routing quality: how this project
// measures it") defines it: flows are traced through the LFTs and the load of a directed cable is the
// number of flows crossing it.
#pragma once

#include <cstdint>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/verify/verify.h"

namespace smd {

struct QualityOptions {
  /// Shift patterns evaluated: all N-1 when that fits both limits below, else that many shifts k evenly
  /// spread over 1..N-1 (k = 1 + i*(N-1)/count). max_shifts 0 = no count limit.
  unsigned max_shifts = 2048;
  /// At most this many shift flows in total (count <= budget / N, at least 1): keeps 32k-host fabrics
  /// to ~128 shifts while a 2k-host fabric gets all of them. 0 = no budget.
  std::uint64_t shift_flow_budget = std::uint64_t{1} << 22;
  unsigned perm_seeds = 20;   ///< random permutations, seeds 1..perm_seeds (std::mt19937_64)
  unsigned ebb_samples = 20;  ///< random bisections for eBB, seeds 1..ebb_samples
  unsigned threads = 0;       ///< 0 = hardware concurrency
};

/// Every figure of the quality report. Loads count flows per directed cable, host cables included
/// (they carry exactly one flow in a permutation, so a max load of 1 is the optimum).
struct QualityReport {
  std::size_t endpoints = 0;          ///< N: CA ports with a LID cabled to a switch
  std::uint64_t pairs = 0;            ///< N * (N - 1) ordered pairs
  std::uint64_t reachable_pairs = 0;  ///< pairs whose flow arrives following the LFTs

  std::uint32_t shift_max_load = 0;  ///< max over evaluated k of the max load of shift k
  double shift_mean_max_load = 0.0;  ///< mean over evaluated k of the max load of shift k
  std::uint32_t shift_worst_k = 0;   ///< a k reaching shift_max_load
  std::size_t shifts_evaluated = 0;
  std::size_t shifts_total = 0;  ///< N - 1

  double perm_max_load_mean = 0.0;  ///< mean over seeds of the max load of a random permutation
  std::uint32_t perm_max_load_max = 0;
  unsigned perm_seeds = 0;

  /// Effective bisection bandwidth (Hoefler, Schneider, Lumsdaine, "Multistage switches are not
  /// crossbars", 2008): random bisections paired up, both directions; a flow gets 1/(max load on its
  /// path), 0 if it does not arrive; mean over all flows of all samples. 1.0 = every flow at full rate.
  double ebb = 0.0;
  unsigned ebb_samples = 0;

  /// Edge forwarding index: max flows over one switch-to-switch cable in all-to-all (N*(N-1) flows).
  /// Host cables are left out: each carries exactly N-1 flows by construction, which says nothing.
  std::uint64_t efi_max = 0;

  std::uint64_t unreachable_flows = 0;  ///< flows of the shift/permutation/bisection patterns that failed

  /// From the verifier (channel-dependency graph acyclic; see VerifyReport).
  bool deadlock_free = false;
  bool ca_deadlock_free = false;

  /// VL layering (VerifyReport::layers, layered, layer_cdg): layers used, 1 when the tables are not
  /// layered; per layer its channel-dependency graph. vls_available: the data VLs the engine could use
  /// (VlLayering::vls_available), 0 when not layered or not recorded.
  bool layered = false;
  std::size_t layers = 1;
  std::uint8_t vls_available = 0;
  std::vector<LayerCdg> layer_cdg;
};

/// Compute the quality figures of `tables`. The CA order for shifts is tables.ca_order if non-empty,
/// else Topology::cas(). `verified` supplies the deadlock figures; when null, verify_tables runs
/// (without requiring deadlock freedom) and its error is returned if the tables are broken.
/// Cost: shifts O(shifts * N * hops); permutations and bisections O(samples * N * hops); all-to-all by
/// all_to_all_loads (all_to_all.h: O(N * switches) memoised walks), never N^2 traces. Spread over threads.
Result<QualityReport> compute_quality(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                      const QualityOptions& options, const VerifyReport* verified = nullptr);

}  // namespace smd
