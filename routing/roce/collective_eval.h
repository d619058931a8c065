// How long a collective (collectives.h) takes under one routing scheme, from the max-min fair rates the
// comparison's evaluator (scheme_eval.h) gives each of its phases: a phase of flows that each carry V
// (share of the message size S) ends when its slowest flow ends, after V / (min flow rate); the phases
// run one after the other. Times are in units of S / line rate.
//
// Simplification: a phase's rates are those of all its flows running together for the whole phase; in
// a real fabric the flows that finish early free their cables and the slow ones speed up. For the
// collectives here every flow of a phase carries the same bytes, so the model is exact when the slowest
// flow's bottleneck is shared only with flows as slow as itself, and pessimistic otherwise.
//
// The ideal: the same phases on a non-blocking fabric of the same line rate, where only the host cables
// limit: a phase in which some host sends (or receives) d flows at most takes V x d, and no fabric does
// better since that host cable must carry d x V. (Max-min on a crossbar gives the flows of that cable
// exactly 1/d, so the evaluator run on a crossbar would give the same.)
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "routing/roce/collectives.h"
#include "routing/roce/scheme_eval.h"

namespace smd::roce {

/// A collective's figures under one scheme.
struct CollectiveFigures {
  std::string name;          ///< the scheme: "ib-static", ...
  double time = 0;           ///< completion time in units of S / line rate; +infinity when a flow is unrouted
  double relative_time = 0;  ///< time / ideal time (>= 1; +infinity when a flow is unrouted)
  /// NCCL busBw as a share of line rate: bus_factor x S / time (busBw = algBw x factor, algBw = S / time).
  double bus_bandwidth = 0;
  std::size_t slowest_phase = 0;   ///< the phase (index into Collective::phases) furthest above its ideal
  double slowest_phase_ratio = 0;  ///< that phase's time / its ideal time
  std::uint64_t unrouted = 0;      ///< flows without a route, summed over distinct phases
  /// The most loaded switch-to-switch cables of the slowest phase (hot_cables.h), filled by the
  /// comparison (compare.h), and how many cables carry the highest load in that phase.
  std::vector<HotCable> hottest_cables;
  std::uint32_t cables_at_max_load = 0;
};

/// A collective's figures under every scheme of the comparison, with the fabric-independent figures.
struct CollectiveResult {
  std::string name;
  std::string job;         ///< the job's name (placement.h): "all" when the whole fabric runs it
  std::size_t leaves = 0;  ///< leaf switches the job's ranks are cabled to
  std::size_t ranks = 0;
  std::uint64_t phases = 0;         ///< phase_count(): repeats counted
  std::size_t distinct_phases = 0;  ///< phases evaluated (a repeated phase once)
  std::uint64_t flows = 0;          ///< flows over the distinct phases
  double ideal_time = 0;            ///< on a non-blocking fabric, units of S / line rate
  double bus_factor = 1.0;          ///< NCCL's busBw / algBw
  double ideal_bus_bandwidth = 0;   ///< bus_factor / ideal_time: 1 for every ring collective
  std::vector<CollectiveFigures> schemes;
};

/// Time of one phase (all its repeats) on a non-blocking fabric: repeat x volume x the most flows any
/// endpoint sends or receives in it.
double ideal_phase_time(const CollectivePhase& phase);

/// Sum of ideal_phase_time over the phases.
double ideal_time(const Collective& collective);

/// The figures of `collective` under scheme `scheme_name` from its phases' evaluations, figures[i] for
/// collective.phases[i] (sizes must match; a mismatch is a caller's bug and gives unrouted = all flows).
CollectiveFigures collective_figures(const Collective& collective, std::span<const InstanceFigures> figures,
                                     const std::string& scheme_name);

/// The scheme-independent part of the result (name, counts, ideal, bus factor); schemes left empty.
CollectiveResult collective_result(const Collective& collective);

}  // namespace smd::roce
