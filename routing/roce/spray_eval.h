// roce-spray, the adaptive-Ethernet upper bound of the comparison (compare.h): every switch sprays a
// flow's packets over all members of the ECMP group BGP installs toward the destination leaf, as vendor
// adaptive Ethernet does per packet (NVIDIA Spectrum-X, Broadcom's DLB/"cognitive routing"). Modelled as
// a fluid: at each switch the flow's traffic splits equally over the group, so flow f puts the fraction
// x(f,c) of its rate on channel c, x summing the equal splits over every shortest-path branch reaching c
// (1 on the two host cables). Packet reordering at the receiver, which spraying causes and which real
// NICs must absorb, is not modelled: the figures are what the cables allow, not what a transport makes
// of them.
//
// Rates: max-min fair under the constraints sum_f r(f) x(f,c) <= 1 for every channel c. Progressive
// filling computes them exactly for such a set (Radunović & Le Boudec, "A unified framework for max-min
// and min-max fairness with applications", IEEE/ACM ToN 15(5), 2007: water-filling reaches the max-min
// fair vector on any down-monotone set; Bertsekas & Gallager, "Data Networks", 6.5.2, for unit weights):
// raise every unfrozen flow's rate r together; channel c saturates at r = remaining(c) / sum of x(f,c)
// over its unfrozen flows; freeze the flows crossing the first channel to saturate; repeat. A channel's
// saturation level only rises while flows freeze below it, so a lazy min-heap finds the next one.
// A flow's rate is thereby bounded by its most loaded channel weighted by its share there.
//
// Figures follow the other schemes' definitions (scheme_eval.h) with the split put in: loads are
// sum_f x(f,c); a flow's bottleneck share is 1 / (the max load over the channels it touches), what it
// gets when every channel is shared in proportion to load; a flow collides when a switch cable it
// touches carries part of another flow.
//
// Cost: the split depends only on (source switch, destination switch), so it is computed once per such
// "route class" and the filling freezes whole classes at a time; O(F + K x E log C) for F flows, K
// classes of E channel entries each and C channels (an all-to-all on the 1728-host 3-level tree: 3
// million flows, 20,736 classes of about 300 entries).
#pragma once

#include <cstdint>
#include <vector>

#include "routing/quality/flow_trace.h"
#include "routing/roce/big_vector.h"
#include "routing/roce/flow_patterns.h"
#include "routing/roce/hop_groups.h"

namespace smd::roce {

struct InstanceFigures;

/// The buffers one thread's SprayEvaluator::evaluate calls reuse from one instance to the next.
struct SprayWorkspace {
  std::vector<std::uint32_t> class_of_pair;         // [leaf a * leaves + leaf b] -> class + 1 (0 = none yet)
  std::uint64_t evaluator = 0;                      // id of the SprayEvaluator whose leaves index class_of_pair
  std::vector<std::uint32_t> class_src, class_dst;  // [class] its source and destination switch
  std::vector<std::uint32_t> class_start;           // [class] first entry in entry_channel (+1 sentinel)
  std::vector<std::uint32_t> entry_channel;         // the classes' switch channels, class after class
  std::vector<double> entry_share;                  // x of that channel for one flow of the class
  std::vector<std::uint8_t> class_routed;           // [class] every branch reached the destination
  BigVector<std::uint32_t> flow_class;              // [flow] its class
  BigVector<std::uint32_t> flows_by_class;          // flows grouped by class (CSR by class_flows)
  std::vector<std::uint32_t> class_flows;           // [class] first flow in flows_by_class (+1)
  BigVector<std::uint32_t> host_members;            // host channel -> flows (CSR by host_start)
  std::vector<std::uint32_t> host_start;            // [channel] (+1)
  std::vector<std::uint32_t> switch_members;        // switch channel -> entries (CSR by switch_start)
  std::vector<std::uint32_t> switch_start;          // [channel] (+1)
  std::vector<std::uint32_t> entry_class;           // [entry] its class
  std::vector<double> load, remaining, weight;      // [channel]
  std::vector<std::uint64_t> unfrozen;              // [channel] unfrozen flows crossing it
  std::vector<std::uint64_t> flows_on;              // [channel] flows crossing it
  std::vector<std::uint32_t> class_unfrozen, class_pending, touched;
  std::vector<double> at_switch, on_channel;  // split()'s accumulators, zero between calls
  BigVector<std::uint8_t> frozen;             // [flow]
  BigVector<double> rate;                     // [flow]
};

/// The read-only tables of the spraying scheme; evaluate() may run on several threads at once.
class SprayEvaluator {
 public:
  /// `tracer` and `groups` (the BGP groups, RoutePlan::fib()) must outlive the evaluator.
  SprayEvaluator(const FlowTracer& tracer, const HopGroups& groups);

  /// The figures of `inst` with every flow sprayed (the file comment). A flow is unrouted when some
  /// branch of its spray meets an empty group, an uncabled port or a loop (a walk longer than the
  /// number of switches).
  InstanceFigures evaluate(const PatternInstance& inst, SprayWorkspace& workspace) const;

 private:
  /// The class of (src switch, dst switch), computing its split the first time it is asked for.
  std::uint32_t class_of(SwitchIndex src, SwitchIndex dst, SprayWorkspace& ws) const;
  /// Append the split of a new class to the workspace's entries; false when a branch is lost.
  bool split(SwitchIndex src, SwitchIndex dst, SprayWorkspace& ws) const;
  /// Every flow's class (unrouted ones counted in r) and every class's flows.
  void classify(const PatternInstance& inst, SprayWorkspace& ws, InstanceFigures& r) const;
  /// Loads, the transposes and the per-channel counts of the classified flows.
  void place(const PatternInstance& inst, SprayWorkspace& ws) const;
  /// Progressive filling over the placed flows: ws.rate.
  void fill(const PatternInstance& inst, SprayWorkspace& ws) const;
  void tally(const PatternInstance& inst, SprayWorkspace& ws, InstanceFigures& r) const;

  const FlowTracer& tracer_;
  const HopGroups& groups_;
  std::size_t num_channels_ = 0;
  std::vector<std::uint32_t> leaf_index_;  // [switch] dense index among switches with endpoints
  std::size_t leaves_ = 0;
  /// Distinct per evaluator ever made (a workspace outlives the evaluator of the fabric before a loss,
  /// and the one after may be made at the same address).
  std::uint64_t id_ = 0;
};

}  // namespace smd::roce
