// The measured comparison: the same flows through five routing schemes over the same cables.
//   ib-static   the IB LFTs as programmed (RoutingTables): one path per destination LID.
//   ib-adaptive IB adaptive routing: at every hop the flow takes the least-loaded member of the AR group
//               (RoutingTables::adaptive); flows are placed one by one in a seeded order, so earlier flows
//               steer later ones (a greedy model of per-packet AR seen at steady state). Without an
//               AdaptivePlan the groups are the min-hop ECMP sets (RoutePlan::min_hop()), which on a Clos /
//               fat tree are exactly the up/down-legal shortest paths; the result carries a note saying so.
//   roce-ecmp   RoCEv2 over the L3 Clos as a plain RoCE NIC uses it: one QP per connection; at every
//               switch the group BGP installs (RoutePlan::fib(), own-AS rule); the 5-tuple (src IP, dst IP,
//               UDP, random source port, 4791) hashed with CRC-32 (per-switch seed, per-tier output bit
//               offset), hash mod group size.
//   roce-eecmp  the same with the destination QPN in the hash and N QPs per connection (Meta's E-ECMP and
//               QP scaling), each QP hashed on its own and carrying 1/N of the flow.
//   roce-spray  per-packet spraying over the same groups at every hop, as a fluid (spray_eval.h): the upper
//               bound of adaptive Ethernet on these cables.
// Figures per pattern and scheme (DESIGN.md "Routing quality"): max link load, mean bottleneck share
// (eBB), max-min fair throughput, collision share. Per AI collective (collectives.h) and scheme:
// completion time relative to a non-blocking fabric and NCCL bus bandwidth (collective_eval.h), its
// phases evaluated by the same evaluator as the patterns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/roce/clos_plan.h"
#include "routing/roce/collective_eval.h"
#include "routing/roce/collectives.h"
#include "routing/roce/flow_patterns.h"
#include "routing/roce/hot_cables.h"
#include "routing/roce/jobs_at_once.h"
#include "routing/roce/placement.h"
#include "routing/roce/rail_layout.h"

namespace smd::roce {

struct CompareOptions {
  PatternOptions patterns;  ///< pairs are endpoint indices (see compare_endpoints)
  /// --qps: QPs per flow for ib-adaptive (placed one by one, 1/qps of the load each) and per connection
  /// for roce-eecmp (1..64). 0 = not given: 1 for ib-adaptive, kDefaultEecmpQps for roce-eecmp.
  /// ib-static and roce-ecmp always use one (a plain RoCE NIC's one QP per connection); roce-spray none.
  unsigned qps = 0;
  std::uint32_t hash_seed = 0;  ///< fabric-wide ECMP hash seed (0 = CRC-32 standard preset)
  /// Per-switch hash seed and per-tier hash bit offset (ecmp_hash.h); false: every switch hashes alike,
  /// which shows hash polarization (a flow's choices at successive tiers are correlated).
  bool per_switch_hash_seed = true;
  unsigned threads = 0;                     ///< 0 = hardware concurrency
  std::vector<CollectiveSpec> collectives;  ///< evaluated after the patterns (collectives.h); empty = none
  /// The job: rank i runs on endpoint ranks[i]; empty = every endpoint in the comparison's order.
  /// Used when `jobs` is empty.
  std::vector<std::uint32_t> ranks;
  /// Several jobs (placement.h): every collective is evaluated per job, one job after the other, each
  /// alone on the fabric. Results are job-major: every collective of jobs[0], then of jobs[1], ...
  std::vector<Job> jobs;
  /// Run the jobs at once instead (jobs_at_once.h): per collective one result over all jobs, named
  /// "JOB1 + JOB2 ...", their flows sharing the fabric. Needs jobs of the same rank count.
  bool jobs_at_once = false;
  /// Multi-HCA hosts (rail_layout.h, from compare_rail_layout): when set, every job is whole hosts and its
  /// collectives are what NCCL puts on the fabric from them (rail_collectives.h: rails, PXN, intra-host
  /// hops free). Patterns stay per endpoint.
  std::optional<RailLayout> rails;
};

/// Figures of one scheme on one pattern; loads are in flows (a QP counts 1/qps, a sprayed flow's share of a
/// cable its fraction there).
struct SchemeFigures {
  std::string name;                 ///< scheme_name(): "ib-static", "ib-adaptive", "roce-ecmp", ...
  std::string note;                 ///< caveat about how the scheme was modelled ("" = none)
  double max_link_load = 0;         ///< max over instances of the max load over all cables (host cables too)
  double mean_max_link_load = 0;    ///< mean over instances of that max
  double max_switch_link_load = 0;  ///< max over instances, switch-to-switch cables only
  /// Mean over flows of sum over the flow's QPs of (1/qps) / (max load on the QP's path): Hoefler's eBB
  /// measure ("Multistage switches are not crossbars", 2008). 1 = every flow at line rate.
  double mean_bottleneck_share = 0;
  double maxmin_throughput = 0;  ///< mean over flows of the max-min fair rate (share of line rate)
  double collision_share = 0;    ///< share of flows with a switch-to-switch cable crossed by another flow
  std::uint64_t flows = 0;       ///< flows evaluated (all instances)
  std::uint64_t unrouted = 0;    ///< flows that did not arrive (count 0 in the means)
  /// The most loaded switch-to-switch cables (hot_cables.h) of the instance with the highest
  /// max_switch_link_load (the first such), and how many cables carry that load there.
  std::vector<HotCable> hottest_cables;
  std::uint32_t cables_at_max_load = 0;
};

struct PatternResult {
  std::string name;
  std::size_t instances = 0;
  std::vector<SchemeFigures> schemes;  ///< in Scheme order (scheme_eval.h)
};

struct Comparison {
  std::size_t endpoints = 0;
  unsigned qps = 1;        ///< ib-adaptive's QPs per flow
  unsigned eecmp_qps = 1;  ///< roce-eecmp's QPs per connection
  std::vector<PatternResult> patterns;
  std::vector<CollectiveResult> collectives;  ///< job-major, then in CompareOptions::collectives order
  std::vector<std::string> notes;
};

/// The fabric after a loss (`smd plan --fail`): the same nodes and LIDs as the fabric before, some cables
/// gone. Borrowed for the call.
struct FabricAfterLoss {
  const Topology* topo = nullptr;         ///< drained_topology (routing/whatif/drain_plan.h)
  const RoutingTables* tables = nullptr;  ///< what the daemon would program there (routing/whatif/fabric_loss.h)
  const RoutePlan* plan = nullptr;        ///< RoutePlan::after_loss of the plan before
};

/// The same comparison on the fabric before and after a loss.
struct LossComparison {
  Comparison before;
  Comparison after;  ///< endpoints and flows numbered as before's; its notes say what was cut off
  /// Endpoints of the fabric before (in compare_endpoints' order) that the fabric after does not have:
  /// their CA port lost its cable to a switch. Every flow to or from one is unrouted after.
  std::vector<Endpoint> cut_off;
};

/// The endpoint order flows are numbered in: CA ports of tables.ca_order then the remaining CAs (the
/// FlowTracer order), as indices into plan.hosts(). Use it to turn a user pair list into FlowPairs.
std::vector<std::uint32_t> compare_endpoints(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                             const RoutePlan& plan);

/// The leaf switch (placement.h) of every endpoint, in compare_endpoints' order.
std::vector<SwitchIndex> compare_endpoint_leaves(const Topology& topo, const LidMap& lids, const RoutingTables& tables);

/// The hosts behind the endpoints (rail_layout.h), in compare_endpoints' order, from the CAs'
/// NodeDescriptions: detection.layout is set on a multi-HCA fabric.
RailDetection compare_rail_layout(const Topology& topo, const LidMap& lids, const RoutingTables& tables);

/// Run every pattern of options.patterns and every phase of options.collectives through the five
/// schemes. Work is spread over threads by (instance, scheme); an instance identical to an earlier one
/// (same flows, same seed: the all-to-all collective over all endpoints is the all-to-all pattern) is
/// evaluated once. Results do not depend on the thread count. Errors: kInvalidInput when a pair or a
/// rank names an endpoint out of range, a rank repeats, or fewer than 2 endpoints exist.
Result<Comparison> compare_schemes(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                   const RoutePlan& plan, const CompareOptions& options);

/// compare_schemes on the fabric before, then the very same flows (patterns, jobs, collectives, seeds:
/// made over the endpoints before) on the fabric after: ib-static through after.tables, ib-adaptive over
/// its AdaptivePlan or the min-hop groups of after.plan, roce-ecmp over after.plan's FIB with the
/// addresses and hash settings of before. A flow keeps its index, so its source ports and its place in
/// ib-adaptive's order do not change; a flow with a cut-off endpoint is unrouted under every scheme (and
/// a collective with one never ends: time infinite). Errors: compare_schemes' and kInvalidInput when
/// `after` lacks a part. Cost: two comparisons.
Result<LossComparison> compare_before_after(const Topology& topo, const LidMap& lids, const RoutingTables& tables,
                                            const RoutePlan& plan, const FabricAfterLoss& after,
                                            const CompareOptions& options);

}  // namespace smd::roce
