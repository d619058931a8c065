// The collectives AI training runs, as the IB-vs-RoCE comparison sees them: each a sequence of PHASES of
// flows between ranks (flows of one phase run together; the next phase starts when the slowest flow of
// this one ends). Ranks 0..r-1 are mapped to comparison endpoints by a list, so a job may use any subset
// of the fabric in any order; on a tree with the whole fabric the list is the engine's CA order.
//
// Volumes are shares of the message size S, NCCL's convention per collective (PERFORMANCE.md in
// NVIDIA/nccl-tests): S is the all-reduce buffer, the all-gather output (reduce-scatter input), the
// all-to-all send buffer of one rank, the point-to-point message of the pipeline.
//   ring all-reduce   NCCL ring: reduce-scatter then all-gather, 2(r-1) steps; in each, rank i sends S/r
//                     to rank i+1 (mod r).
//   tree all-reduce   NCCL's double binary tree: two trees, each carrying S/2, leaves of one are inner
//                     nodes of the other; reduce up level by level, then broadcast down (phases per level).
//   all-gather,       ring: r-1 steps of S/r to the successor.
//   reduce-scatter
//   all-to-all        every rank sends S/r to every other in ONE phase: NCCL's alltoall posts all its
//                     sends and receives in one group (ncclGroupStart/End) and lets them run at once, it
//                     does not schedule r-1 shifts.
//   moe all-to-all    all-to-all within expert groups of g consecutive ranks (S/g to each group member);
//                     the last group holds the r mod g left over, a group >= r is the whole job.
//   pipeline          pipeline-parallel neighbours: rank i sends S to rank i+1 (i < r-1), point to point.
// A phase repeated back to back with the same flows (a ring's steps) is one phase with a repeat count:
// NCCL keeps its connections, so every step hashes and routes exactly as the first.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/roce/flow_patterns.h"

namespace smd::roce {

enum class CollectiveKind : std::uint8_t {
  kRingAllReduce,
  kTreeAllReduce,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kMoeAllToAll,
  kPipeline,
};

/// One requested collective: its kind and, for kMoeAllToAll, the expert group size g (>= 2).
struct CollectiveSpec {
  CollectiveKind kind = CollectiveKind::kRingAllReduce;
  unsigned group = 0;
};

/// Flows that run together, each carrying `volume` (share of S), run `repeat` times one after the other.
/// instance.flows are endpoint indices; instance.seed is 1 for every phase (the seed of the all-to-all
/// pattern, so the same flows give the same ECMP source ports wherever they appear).
struct CollectivePhase {
  PatternInstance instance;
  double volume = 0;
  std::uint32_t repeat = 1;
};

/// A collective built over a rank list.
struct Collective {
  std::string name;         ///< "ring-allreduce", "moe-alltoall:8", ... (collective_name)
  std::size_t ranks = 0;    ///< r
  double bus_factor = 1.0;  ///< NCCL busBw / algBw for this collective over r ranks (bus_factor())
  std::vector<CollectivePhase> phases;
};

/// The --collectives default: every collective, MoE with expert groups of 8 (one 8-GPU host's worth).
inline constexpr const char* kDefaultCollectives = "ring,tree,allgather,reducescatter,alltoall,moe:8,pipeline";

/// The comma-separated list of --collectives: ring, tree, allgather, reducescatter, alltoall, moe:G,
/// pipeline; "none" or "" = no collective. Errors: kInvalidInput naming the unknown word or a bad G.
Result<std::vector<CollectiveSpec>> parse_collectives(std::string_view list);

/// The name a result carries: ring-allreduce, tree-allreduce, allgather, reducescatter, alltoall,
/// moe-alltoall:G, pipeline.
std::string collective_name(const CollectiveSpec& spec);

/// NCCL's busBw factor (nccl-tests PERFORMANCE.md): busBw = algBw x factor, algBw = S / time, so that a
/// collective at the hardware's speed shows busBw = line rate whatever r. All-reduce 2(r-1)/r (each rank
/// sends and receives 2(r-1)/r x S on a ring); all-gather, reduce-scatter, all-to-all (r-1)/r; moe with
/// groups of g (g-1)/g; point-to-point 1.
double bus_factor(const CollectiveSpec& spec, std::size_t ranks);

/// The collective's phases over `ranks` (rank i = endpoint ranks[i]). Errors: kInvalidInput when fewer
/// than 2 ranks are given or a rank repeats.
Result<Collective> make_collective(const CollectiveSpec& spec, std::span<const std::uint32_t> ranks);

/// Phases one after the other, repeats counted (ring all-reduce: 2(r-1)).
std::uint64_t phase_count(const Collective& collective);

/// Parent of every position 0..r-1 in the in-order binary tree of the double binary tree (-1 at the
/// root): over positions 1..r, the root of a range is its member with the most trailing zero bits, so
/// odd positions are leaves and the depth is floor(log2 r). Tree 2 puts rank r-1-p (r even) or
/// (p+1) mod r (r odd) at position p, so that the leaves of one tree are inner nodes of the other.
std::vector<std::int64_t> inorder_tree_parents(std::size_t r);

}  // namespace smd::roce
