#include "routing/quality/all_to_all.h"

#include <algorithm>
#include <mutex>

#include "routing/model/lft_walk.h"

namespace smd {
namespace {

constexpr unsigned kBlock = kLftBlockSize;
constexpr std::uint32_t kUnseen = 0;
constexpr std::uint32_t kFailed = 0xFFFFFFFFu;
// Walk state per switch for the current destination: kUnseen, kFailed, kOnPath (on the walk in progress:
// meeting it again is a loop), or the depth d >= 1: switch out-ports left to the delivery.
constexpr std::uint32_t kOnPath = 0xFFFFFFFEu;

/// One thread's walks and accumulated loads.
class Accumulator {
 public:
  Accumulator(const FlowTracer& tracer, const std::vector<std::uint32_t>& weight,
              const std::vector<SwitchIndex>& sources)
      : tracer_(tracer),
        graph_(tracer.graph()),
        weight_(weight),
        sources_(sources),
        n_(graph_.num_switches()),
        block_(n_ * kBlock, kNoPort),
        depth_(n_, kUnseen),
        next_(n_, kNoSwitch),
        out_(n_, kNoPort),
        through_(n_, 0) {
    out_loads_.slot_load.assign(graph_.num_slots(), 0);
  }

  /// Destinations `dsts` (endpoint indices), all with base LIDs in block [base, base + 64).
  void run_block(std::size_t base, const std::vector<std::uint32_t>& dsts) {
    tracer_.lfts().copy_block(base, kBlock, block_.data());
    for (std::uint32_t d : dsts) destination(d, tracer_.endpoints()[d].lid - base);
  }

  const AllToAllLoads& loads() const { return out_loads_; }

 private:
  /// All flows to endpoint d (column j of the block).
  void destination(std::uint32_t d, std::size_t j) {
    const Endpoint& to = tracer_.endpoints()[d];
    const LidTarget target{to.sw, to.sw_port};
    // Flows that start at switch s: its endpoints, less the destination itself.
    const auto starting = [&](SwitchIndex s) { return weight_[s] - (s == to.sw ? 1u : 0u); };
    std::uint32_t max_depth = 0;
    for (SwitchIndex s : sources_) {
      if (starting(s) == 0) continue;
      max_depth = std::max(max_depth, walk(s, j, target));
    }
    // Counting sort of the delivered switches by depth; a switch's next hop is one shallower, so
    // deepest-first pushes every weight along before its next switch adds its own to the cable it uses.
    by_depth_off_.assign(max_depth + 2, 0);
    for (SwitchIndex s : seen_) {
      if (depth_[s] != kFailed) ++by_depth_off_[depth_[s] + 1];
    }
    for (std::size_t k = 1; k < by_depth_off_.size(); ++k) by_depth_off_[k] += by_depth_off_[k - 1];
    by_depth_.resize(by_depth_off_.back());
    for (SwitchIndex s : seen_) {
      if (depth_[s] != kFailed) by_depth_[by_depth_off_[depth_[s]]++] = s;
    }
    // by_depth_off_[k] now ends depth k: the array holds depths 1..max in increasing order.
    for (std::size_t i = by_depth_.size(); i-- > 0;) {
      const SwitchIndex s = by_depth_[i];
      const std::uint64_t flows = through_[s] + starting(s);
      out_loads_.slot_load[graph_.slot(s, out_[s])] += flows;
      out_loads_.delivered_pairs += starting(s);
      if (next_[s] != kNoSwitch) through_[next_[s]] += flows;
    }
    for (SwitchIndex s : seen_) {
      if (depth_[s] == kFailed) out_loads_.failed_pairs += starting(s);
      depth_[s] = kUnseen;
      through_[s] = 0;
      next_[s] = kNoSwitch;
    }
    seen_.clear();
  }

  /// Follow column j from s0 until a switch already judged, delivery or a drop; judge the walk's switches.
  /// Returns the depth of s0 (0 when it failed).
  std::uint32_t walk(SwitchIndex s0, std::size_t j, const LidTarget& target) {
    path_.clear();
    SwitchIndex s = s0;
    std::uint32_t end = kFailed;  // depth of the switch the walk ran into (0 = delivered at the last one)
    for (;;) {
      const std::uint32_t st = depth_[s];
      if (st == kFailed || st == kOnPath) break;  // failed before, or met again on this walk: a loop
      if (st != kUnseen) {
        end = st;  // delivered from here in st hops
        break;
      }
      depth_[s] = kOnPath;
      path_.push_back(s);
      seen_.push_back(s);
      const PortNum p = block_[s * kBlock + j];
      SwitchIndex next = kNoSwitch;
      const LftHop hop = lft_hop(graph_, s, p, target, next);
      if (hop == LftHop::kForward) {
        out_[s] = p;
        next_[s] = next;
        s = next;
        continue;
      }
      if (hop == LftHop::kDelivered) {
        out_[s] = p;
        next_[s] = kNoSwitch;
        end = 0;
      }
      break;
    }
    if (end == kFailed) {
      for (SwitchIndex x : path_) depth_[x] = kFailed;
      return 0;
    }
    std::uint32_t d = end;
    for (std::size_t i = path_.size(); i-- > 0;) depth_[path_[i]] = ++d;
    return d;
  }

  const FlowTracer& tracer_;
  const SwitchGraph& graph_;
  const std::vector<std::uint32_t>& weight_;  // [switch] endpoints cabled to it
  const std::vector<SwitchIndex>& sources_;   // switches with endpoints
  AllToAllLoads out_loads_;
  std::size_t n_;
  std::vector<PortNum> block_;          // [switch * 64 + column]
  std::vector<std::uint32_t> depth_;    // [switch] walk state, see kOnPath
  std::vector<SwitchIndex> next_;       // [switch] next switch on the way, kNoSwitch at the delivering one
  std::vector<PortNum> out_;            // [switch] port the flows leave by
  std::vector<std::uint64_t> through_;  // [switch] flows arriving from other switches
  std::vector<SwitchIndex> path_;
  std::vector<SwitchIndex> seen_;
  std::vector<std::uint32_t> by_depth_off_;
  std::vector<SwitchIndex> by_depth_;
};

}  // namespace

AllToAllLoads all_to_all_loads(const FlowTracer& tracer, unsigned threads) {
  const auto& eps = tracer.endpoints();
  const SwitchGraph& graph = tracer.graph();
  std::vector<std::uint32_t> weight(graph.num_switches(), 0);
  for (const Endpoint& e : eps) ++weight[e.sw];
  std::vector<SwitchIndex> sources;
  for (SwitchIndex s = 0; s < graph.num_switches(); ++s) {
    if (weight[s] > 0) sources.push_back(s);
  }
  // Destinations grouped by LID block; blocks are the unit of parallel work.
  std::vector<std::vector<std::uint32_t>> by_block;
  for (std::uint32_t d = 0; d < eps.size(); ++d) {
    const std::size_t b = eps[d].lid / kBlock;
    if (by_block.size() <= b) by_block.resize(b + 1);
    by_block[b].push_back(d);
  }
  AllToAllLoads total;
  total.slot_load.assign(graph.num_slots(), 0);
  std::mutex mu;
  parallel_for_chunks(
      by_block.size(), threads,
      [&](std::size_t first, std::size_t last) {
        Accumulator acc(tracer, weight, sources);
        for (std::size_t b = first; b < last; ++b) {
          if (!by_block[b].empty()) acc.run_block(b * kBlock, by_block[b]);
        }
        std::lock_guard lock(mu);
        const AllToAllLoads& part = acc.loads();
        total.delivered_pairs += part.delivered_pairs;
        total.failed_pairs += part.failed_pairs;
        for (std::size_t c = 0; c < total.slot_load.size(); ++c) total.slot_load[c] += part.slot_load[c];
      },
      4);
  return total;
}

}  // namespace smd
