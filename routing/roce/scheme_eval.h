// One pattern instance through one routing scheme of the IB-vs-RoCE comparison (compare.h): every flow's
// path as directed channels, the load the paths put on every cable, and the per-instance figures.
// This is the comparison's inner loop (an all-to-all on 1728 hosts is 3 million flows per scheme), so
// the tables it reads are laid out for it: min-hop groups and LFT ports transposed so that one flow's
// lookups fall into one short row (which is fetched ahead when flows come in random order), the big
// per-flow arrays on huge pages (big_vector.h), and the ECMP hash split into precomputed terms
// (ecmp_hash.h: per address, per source-port byte, per switch), so a flow costs a few XORs per hop
// instead of a CRC per hop. The figures are exactly those of the straightforward per-flow loop.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "routing/model/adaptive.h"
#include "routing/quality/flow_trace.h"
#include "routing/roce/big_vector.h"
#include "routing/roce/clos_plan.h"
#include "routing/roce/flow_patterns.h"
#include "routing/roce/hop_groups.h"
#include "routing/roce/hot_cables.h"
#include "routing/roce/maxmin.h"
#include "routing/roce/spray_eval.h"

namespace smd::roce {

/// A flow endpoint the fabric evaluated does not have (cut off by a loss, compare_before_after): the
/// evaluator counts every flow to or from it as unrouted, under every scheme.
inline constexpr std::uint32_t kNoEndpoint = 0xFFFFFFFFu;

/// The schemes in report order, from IB to the two ends of Ethernet: plain hashing (roce-ecmp, one QP per
/// connection as a RoCE NIC opens by default), enhanced ECMP with QP scaling (roce-eecmp: the switch also
/// hashes the destination QPN, each connection opens several QPs; Gangidi et al., "RDMA over Ethernet for
/// Distributed AI Training at Meta Scale", SIGCOMM 2024, section 5) and per-packet spraying
/// (roce-spray, spray_eval.h), the bound vendor adaptive Ethernet approaches.
enum class Scheme : std::uint8_t { kStatic = 0, kAdaptive = 1, kEcmp = 2, kEcmpQp = 3, kSpray = 4 };
inline constexpr unsigned kNumSchemes = 5;

/// "ib-static", "ib-adaptive", "roce-ecmp", "roce-eecmp", "roce-spray".
const char* scheme_name(Scheme scheme);

/// QPs per connection roce-eecmp opens when the caller gives none: 4, the value NCCL users commonly set
/// NCCL_IB_QPS_PER_CONNECTION to on RoCE fabrics (NCCL's own default is 1, which is roce-ecmp); each QP
/// carries a quarter of the flow, and docs/roce.md measures how close 4 gets to spraying.
inline constexpr unsigned kDefaultEecmpQps = 4;

/// Sums over one instance under one scheme, aggregated per (pattern, scheme) by compare_schemes.
struct InstanceFigures {
  double max_load = 0;         ///< max over all channels, in flows (a QP counts 1/qps)
  double max_switch_load = 0;  ///< max over switch-to-switch channels
  double bottleneck_sum = 0;   ///< sum over routed flows of their bottleneck share
  double maxmin_sum = 0;       ///< sum over routed QPs of their max-min fair rate
  /// Min over routed flows of the flow's max-min fair rate (its QPs' rates summed): the flow that ends
  /// last when all carry the same bytes, which is how a collective's phase ends (collective_eval.h).
  /// 0 when no flow was routed.
  double min_flow_rate = 0;
  std::uint64_t collisions = 0;
  std::uint64_t flows = 0;
  std::uint64_t unrouted = 0;
  HottestChannels hottest;  ///< the most loaded switch-to-switch channels (the report marks them)
};

/// What the schemes are parameterised by (CompareOptions' fields of the same names).
struct EvalOptions {
  unsigned qps = 1;             ///< QPs per flow for ib-adaptive (ib-static and roce-ecmp: always 1)
  std::uint32_t hash_seed = 0;  ///< fabric-wide ECMP hash seed
  bool per_switch_hash_seed = true;
  unsigned eecmp_qps = kDefaultEecmpQps;  ///< QPs per connection for roce-eecmp (1..64)
};

/// The buffers one thread's evaluate() calls reuse from one instance to the next (hundreds of MB for an
/// all-to-all on 1728 hosts: allocating them afresh each time costs more than filling them).
/// Paths are kept as out-ports, a byte a hop (PortPaths), not as 4-byte channel ids: an all-to-all on
/// 1728 hosts under 4 QPs is 12 million paths of about six channels.
struct EvalWorkspace {
  BigVector<std::uint32_t> offsets;     // sub-flow (QP) -> its first port in `ports` (+1 sentinel)
  BigVector<std::uint8_t> ports;        // the sub-flows' out-ports, switch by switch, one path after the other
  BigVector<std::uint32_t> routed_src;  // routed flow k (sub-flows k*qps ..) -> its source endpoint
  std::vector<std::uint32_t> path;      // the channels of the flow being routed, its QPs one after the other
  std::vector<std::uint32_t> qp_end;    // where each of its QPs ends in `path`
  BigVector<FlowPair> placed;           // ib-adaptive: the flows in their placement order
  std::vector<double> load;             // per channel
  std::vector<std::uint32_t> flows_on, last_flow;  // per channel, with several QPs: distinct flows, last counted
  std::vector<std::uint8_t> shared;                // per channel: a switch cable two or more flows cross
  std::vector<std::uint32_t> subflows_on;          // per channel: routed sub-flows crossing it (maxmin_rates_counted)
  MaxMinWorkspace maxmin;
  SprayWorkspace spray;  // roce-spray's own
};

/// The routed sub-flows of an EvalWorkspace as maxmin_rates_of reads paths (maxmin.h): sub-flow u
/// enters the fabric on the injection channel of endpoint routed_src[u / qps], then leaves each switch
/// by its next port; channels are decoded from the ports on the way (SwitchGraph::slot, peer_switch),
/// so the channels are exactly those the walk crossed.
struct PortPaths {
  const SwitchGraph* graph = nullptr;
  const Endpoint* endpoints = nullptr;
  std::span<const std::uint32_t> offsets;
  std::span<const std::uint8_t> ports;
  std::span<const std::uint32_t> routed_src;
  unsigned qps = 1;

  std::size_t units() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  std::size_t entries() const { return ports.size() + units(); }
  template <class Fn>
  void for_each(std::size_t u, Fn&& fn) const {
    const std::uint32_t src = routed_src[u / qps];
    fn(graph->num_slots() + src);
    SwitchIndex s = endpoints[src].sw;
    for (std::uint32_t j = offsets[u]; j < offsets[u + 1]; ++j) {
      const PortNum p = ports[j];
      fn(graph->slot(s, p));
      s = graph->peer_switch(s, p);  // kNoSwitch after the delivery port, the last
    }
  }
  void prefetch_index(std::size_t u) const {
    __builtin_prefetch(&offsets[u]);
    __builtin_prefetch(&routed_src[u / qps]);
  }
  void prefetch_path(std::size_t u) const { __builtin_prefetch(&ports[offsets[u]]); }
};

/// The read-only tables of one comparison; evaluate() may run on several threads at once.
class SchemeEvaluator {
 public:
  /// `tracer`, `plan` and `adaptive` must outlive the evaluator. The roce schemes hash (or spray) over
  /// plan.fib() (what BGP installs); `adaptive` null: plan.min_hop() stands in for the AR groups.
  /// Endpoints without an address in `plan` hash as 0.0.0.0.
  SchemeEvaluator(const FlowTracer& tracer, const RoutePlan& plan, const AdaptivePlan* adaptive,
                  const EvalOptions& options);

  /// Route every flow of `inst` under `scheme` and return its figures. A flow naming an endpoint past
  /// the tracer's (kNoEndpoint) is unrouted and keeps its index, so the other flows' source ports and
  /// placement order are those of the same instance on the whole fabric. O(total path length) plus the
  /// max-min computation (maxmin.h); memory O(total path length).
  InstanceFigures evaluate(const PatternInstance& inst, Scheme scheme, EvalWorkspace& workspace) const;

  /// The QPs a flow of `scheme` is split into: ib-adaptive EvalOptions::qps, roce-eecmp
  /// EvalOptions::eecmp_qps, the others 1 (roce-spray is a fluid, not QPs).
  unsigned qps(Scheme scheme) const;

 private:
  /// LFT out-port of every switch toward endpoint e's base LID, one row per endpoint.
  const PortNum* lft_row(std::uint32_t e) const { return lft_to_.data() + static_cast<std::size_t>(e) * num_switches_; }
  /// Fetch the rows the walk of `flow` will read (issued a few flows ahead).
  void prefetch_rows(const FlowPair& flow) const;
  bool walk_static(const FlowPair& flow, std::vector<std::uint32_t>& channels) const;
  /// `switch_terms`: switch_term_ for the 5-tuple hash, switch_term_qp_ for the E-ECMP one.
  bool walk_ecmp(const FlowPair& flow, std::uint32_t flow_hash, const std::vector<std::uint32_t>& switch_terms,
                 std::vector<std::uint32_t>& channels) const;
  bool walk_adaptive(const FlowPair& flow, const std::vector<double>& load, std::vector<std::uint32_t>& channels) const;
  /// The hop loop walk_ecmp and walk_adaptive share; `choose(s)` is the out-port at switch s.
  template <class Choose>
  bool walk_hops(const FlowPair& flow, std::vector<std::uint32_t>& channels, Choose&& choose) const;
  /// evaluate()'s steps: empty the workspace, route the flows, sum up the figures.
  void reset_workspace(std::size_t flows, unsigned qps, EvalWorkspace& ws) const;
  bool route_flow(const FlowPair& flow, std::uint32_t id, Scheme scheme, unsigned qps, std::uint64_t port_seed,
                  EvalWorkspace& ws) const;
  void place_flows(const PatternInstance& inst, Scheme scheme, unsigned qps, EvalWorkspace& ws,
                   InstanceFigures& r) const;
  void tally(unsigned qps, EvalWorkspace& ws, InstanceFigures& r) const;
  /// The workspace's routed sub-flows as paths for maxmin_rates_of and the tally.
  PortPaths port_paths(const EvalWorkspace& ws, unsigned qps) const;

  const FlowTracer& tracer_;
  const AdaptivePlan* adaptive_;
  unsigned qps_ = 1;
  unsigned eecmp_qps_ = kDefaultEecmpQps;
  std::size_t num_switches_ = 0;
  std::size_t num_channels_ = 0;
  std::vector<PortNum> slot_port_;  // [slot] its port number: a walked channel stored as its port
  // Transposed tables, so that the lookups of one flow fall into one short row: the groups by
  // destination switch (ECMP: what BGP installs, RoutePlan::fib(); AR without an AdaptivePlan: the
  // min-hop sets, RoutePlan::min_hop()), and lft_to_[e * S + s] = LFT port of s for endpoint e.
  HopGroups groups_;
  HopGroups min_hop_groups_;
  std::vector<PortNum> lft_to_;
  // ECMP hash terms: hash at switch s = src_term_[src] ^ dst_term_[dst] ^ fixed_term_ ^ sport_hi_[port >> 8]
  //                                      ^ sport_lo_[port & 0xFF] ^ switch_term_[s]
  std::vector<std::uint32_t> src_term_, dst_term_;  // [endpoint]
  std::array<std::uint32_t, 256> sport_hi_{}, sport_lo_{};
  std::uint32_t fixed_term_ = 0;             // protocol and destination port
  std::vector<std::uint32_t> switch_term_;   // [switch] its hash seed
  std::vector<std::uint8_t> switch_offset_;  // [switch] its hash bit offset
  // E-ECMP: hash at s = append_qpn(5-tuple terms without the switch's, QPN) ^ switch_term_qp_[s]
  // (append_qpn is affine, ecmp_hash.h).
  std::vector<std::uint32_t> switch_term_qp_;
  SprayEvaluator spray_;
};

}  // namespace smd::roce
