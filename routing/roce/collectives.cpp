#include "routing/roce/collectives.h"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace smd::roce {
namespace {

constexpr std::uint64_t kPhaseSeed = 1;

struct Word {
  std::string_view word;
  CollectiveKind kind;
};
constexpr Word kWords[] = {
    {"ring", CollectiveKind::kRingAllReduce},  {"tree", CollectiveKind::kTreeAllReduce},
    {"allgather", CollectiveKind::kAllGather}, {"reducescatter", CollectiveKind::kReduceScatter},
    {"alltoall", CollectiveKind::kAllToAll},   {"moe", CollectiveKind::kMoeAllToAll},
    {"pipeline", CollectiveKind::kPipeline},
};

std::string known_words() { return "ring, tree, allgather, reducescatter, alltoall, moe:G, pipeline; or none alone"; }

/// A phase of `flows` (endpoint indices), each carrying `volume`, run `repeat` times.
CollectivePhase phase(std::vector<FlowPair> flows, double volume, std::uint32_t repeat) {
  return CollectivePhase{PatternInstance{std::move(flows), kPhaseSeed}, volume, repeat};
}

/// The ring: rank i -> rank i+1 (mod r).
std::vector<FlowPair> ring_flows(std::span<const std::uint32_t> ranks) {
  std::vector<FlowPair> flows;
  for (std::size_t i = 0; i < ranks.size(); ++i) flows.push_back(FlowPair{ranks[i], ranks[(i + 1) % ranks.size()]});
  return flows;
}

/// All ordered pairs of ranks [first, last), source-major (the all-to-all pattern's order).
void all_pairs(std::span<const std::uint32_t> ranks, std::size_t first, std::size_t last,
               std::vector<FlowPair>& flows) {
  for (std::size_t s = first; s < last; ++s) {
    for (std::size_t d = first; d < last; ++d) {
      if (s != d) flows.push_back(FlowPair{ranks[s], ranks[d]});
    }
  }
}

/// The double binary tree's phases: reduce from the deepest level up, then broadcast from the root down;
/// each phase holds the edges of that level in both trees, each tree carrying S/2.
///
/// NCCL pipelines the trees: S/2 goes up and down in chunks, so every level (and both directions) is
/// busy at once and the time is about that of the busiest level plus a fill latency. Here the levels run
/// one after the other, a store-and-forward view: the time and its ideal are both depth-times longer
/// than NCCL's, and cables that two levels share at once in NCCL are shared here only within one level.
/// Time relative to ideal therefore measures what routing adds per level, not the pipeline's overlap;
/// the bus bandwidth of this model's ideal is 2(r-1)/r / floor(log2 r), not NCCL's ~1.
std::vector<CollectivePhase> tree_phases(std::span<const std::uint32_t> ranks) {
  const std::size_t r = ranks.size();
  const auto parent = inorder_tree_parents(r);
  std::vector<unsigned> depth(r, 0);
  unsigned max_depth = 0;
  for (std::size_t p = 0; p < r; ++p) {
    for (std::int64_t a = parent[p]; a >= 0; a = parent[static_cast<std::size_t>(a)]) ++depth[p];
    max_depth = std::max(max_depth, depth[p]);
  }
  auto rank_a = [&](std::size_t p) { return ranks[p]; };
  auto rank_b = [&](std::size_t p) { return ranks[r % 2 == 0 ? r - 1 - p : (p + 1) % r]; };
  auto level = [&](unsigned d, bool up) {
    std::vector<FlowPair> flows;
    for (std::size_t p = 0; p < r; ++p) {
      if (depth[p] != d) continue;
      const auto q = static_cast<std::size_t>(parent[p]);
      flows.push_back(up ? FlowPair{rank_a(p), rank_a(q)} : FlowPair{rank_a(q), rank_a(p)});
      flows.push_back(up ? FlowPair{rank_b(p), rank_b(q)} : FlowPair{rank_b(q), rank_b(p)});
    }
    return flows;
  };
  std::vector<CollectivePhase> phases;
  for (unsigned d = max_depth; d >= 1; --d) phases.push_back(phase(level(d, true), 0.5, 1));
  for (unsigned d = 1; d <= max_depth; ++d) phases.push_back(phase(level(d, false), 0.5, 1));
  return phases;
}

}  // namespace

Result<std::vector<CollectiveSpec>> parse_collectives(std::string_view list) {
  std::vector<CollectiveSpec> out;
  // "none" and "" both ask for no collective (collectives.h, docs/roce.md: `--collectives none` or `''`).
  if (list == "none" || list.empty()) return out;
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string_view item = list.substr(at, comma - at);
    at = comma + 1;
    const std::size_t colon = item.find(':');
    const std::string_view word = item.substr(0, colon);
    if (word == "none") {
      return make_error(ErrorCode::kInvalidInput,
                        "--collectives: 'none' (no collective) stands alone, not in a list with others");
    }
    const auto* found =
        std::find_if(std::begin(kWords), std::end(kWords), [&](const Word& w) { return w.word == word; });
    if (found == std::end(kWords)) {
      return make_error(ErrorCode::kInvalidInput,
                        "--collectives: unknown collective '" + std::string(item) + "' (known: " + known_words() + ")");
    }
    CollectiveSpec spec{found->kind, 0};
    const bool moe = spec.kind == CollectiveKind::kMoeAllToAll;
    if (moe != (colon != std::string_view::npos)) {
      return make_error(ErrorCode::kInvalidInput, "--collectives: '" + std::string(item) +
                                                      "': moe takes its group size (moe:8), the others take none");
    }
    if (moe) {
      const std::string digits(item.substr(colon + 1));
      const bool numeric = !digits.empty() && digits.size() <= 6 &&
                           std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
      spec.group = numeric ? static_cast<unsigned>(std::stoul(digits)) : 0;
      if (spec.group < 2) {
        return make_error(ErrorCode::kInvalidInput,
                          "--collectives: '" + std::string(item) + "': the expert group size must be a number >= 2");
      }
    }
    // A collective named twice would be timed and printed twice: a slip, not a request.
    if (std::any_of(out.begin(), out.end(),
                    [&](const CollectiveSpec& o) { return o.kind == spec.kind && o.group == spec.group; })) {
      return make_error(ErrorCode::kInvalidInput, "--collectives: '" + std::string(item) + "' is named twice");
    }
    out.push_back(spec);
  }
  return out;
}

std::string collective_name(const CollectiveSpec& spec) {
  switch (spec.kind) {
    case CollectiveKind::kRingAllReduce: return "ring-allreduce";
    case CollectiveKind::kTreeAllReduce: return "tree-allreduce";
    case CollectiveKind::kAllGather: return "allgather";
    case CollectiveKind::kReduceScatter: return "reducescatter";
    case CollectiveKind::kAllToAll: return "alltoall";
    case CollectiveKind::kMoeAllToAll: return "moe-alltoall:" + std::to_string(spec.group);
    case CollectiveKind::kPipeline: return "pipeline";
  }
  return "?";
}

double bus_factor(const CollectiveSpec& spec, std::size_t ranks) {
  const auto r = static_cast<double>(ranks);
  switch (spec.kind) {
    case CollectiveKind::kRingAllReduce:
    case CollectiveKind::kTreeAllReduce: return 2 * (r - 1) / r;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter:
    case CollectiveKind::kAllToAll: return (r - 1) / r;
    case CollectiveKind::kMoeAllToAll: {
      const auto g = static_cast<double>(std::min<std::size_t>(spec.group, ranks));
      return (g - 1) / g;
    }
    case CollectiveKind::kPipeline: return 1.0;
  }
  return 1.0;
}

Result<Collective> make_collective(const CollectiveSpec& spec, std::span<const std::uint32_t> ranks) {
  const std::string name = collective_name(spec);
  const std::size_t r = ranks.size();
  if (r < 2) return make_error(ErrorCode::kInvalidInput, name + ": needs at least 2 ranks, got " + std::to_string(r));
  std::unordered_set<std::uint32_t> seen;
  for (std::size_t i = 0; i < r; ++i) {
    if (!seen.insert(ranks[i]).second) {
      return make_error(ErrorCode::kInvalidInput, name + ": rank " + std::to_string(i) + " is endpoint " +
                                                      std::to_string(ranks[i]) + ", which an earlier rank already is");
    }
  }
  Collective c{name, r, bus_factor(spec, r), {}};
  const double share = 1.0 / static_cast<double>(r);
  const auto steps = static_cast<std::uint32_t>(r - 1);
  switch (spec.kind) {
    case CollectiveKind::kRingAllReduce: c.phases.push_back(phase(ring_flows(ranks), share, 2 * steps)); break;
    case CollectiveKind::kTreeAllReduce: c.phases = tree_phases(ranks); break;
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter: c.phases.push_back(phase(ring_flows(ranks), share, steps)); break;
    case CollectiveKind::kAllToAll: {
      std::vector<FlowPair> flows;
      flows.reserve(r * (r - 1));
      all_pairs(ranks, 0, r, flows);
      c.phases.push_back(phase(std::move(flows), share, 1));
      break;
    }
    case CollectiveKind::kMoeAllToAll: {
      const std::size_t g = std::min<std::size_t>(spec.group, r);
      std::vector<FlowPair> flows;
      flows.reserve(r * (g - 1));
      for (std::size_t first = 0; first < r; first += g) all_pairs(ranks, first, std::min(r, first + g), flows);
      c.phases.push_back(phase(std::move(flows), 1.0 / static_cast<double>(g), 1));
      break;
    }
    case CollectiveKind::kPipeline: {
      std::vector<FlowPair> flows;
      for (std::size_t i = 0; i + 1 < r; ++i) flows.push_back(FlowPair{ranks[i], ranks[i + 1]});
      c.phases.push_back(phase(std::move(flows), 1.0, 1));
      break;
    }
  }
  return c;
}

std::uint64_t phase_count(const Collective& collective) {
  std::uint64_t n = 0;
  for (const auto& p : collective.phases) n += p.repeat;
  return n;
}

std::vector<std::int64_t> inorder_tree_parents(std::size_t r) {
  std::vector<std::int64_t> parent(r, -1);
  // Ranges [lo, hi] of 1-based positions still to split, with the position of their parent (0 = none).
  struct Range {
    std::size_t lo, hi, up;
  };
  std::vector<Range> todo{{1, r, 0}};
  while (!todo.empty()) {
    const Range range = todo.back();
    todo.pop_back();
    if (range.lo > range.hi) continue;
    // The member with the most trailing zeros: the largest power of two b with a multiple in the range.
    std::size_t root = range.lo;
    for (std::size_t b = std::size_t{1} << 62; b >= 1; b >>= 1) {
      const std::size_t m = range.hi / b * b;
      if (m >= range.lo && m > 0) {
        root = m;
        break;
      }
    }
    parent[root - 1] = range.up == 0 ? -1 : static_cast<std::int64_t>(range.up - 1);
    todo.push_back(Range{range.lo, root - 1, root});
    todo.push_back(Range{root + 1, range.hi, root});
  }
  return parent;
}

}  // namespace smd::roce
