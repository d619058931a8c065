// Job placement for the comparison's collectives: which endpoints a job's ranks run on, in rank order.
// A real training job gets a fragment of the fabric (Meta, SIGCOMM 2024: ECMP losses on partially
// allocated racks), so the collectives run over a rank list, not the whole fabric. A "leaf" (rack) is
// the switch an endpoint's port is cabled to (FlowTracer's Endpoint::sw).
//   contiguous:N        the first N endpoints of the comparison's order (the engine's CA order).
//   fragmented:N,FILL   leaf by leaf in order of first appearance, the first max(1, floor(FILL x hosts of
//                       that leaf)) hosts of each, until N: the job spans ceil(N / (FILL x hosts per
//                       leaf)) leaves on a uniform fabric. Ranks stay grouped by leaf, as a scheduler's
//                       host list sorted by name gives them and NCCL orders its ring (by host).
//   fragmented:N,FILL,across  the same hosts ranked across the leaves: one host of each leaf in turn
//                       (a host list sorted by slot number, not by rack), so every ring flow crosses
//                       leaves: the order where static routing and hashing part.
//   random:N,SEED       N endpoints drawn by seeded_shuffle (routing/quality/seeded_shuffle.h), in the
//                       order drawn.
// Several jobs are evaluated one after the other, each alone on the fabric (see compare.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/hop_table.h"

namespace smd::roce {

enum class PlacementKind : std::uint8_t { kContiguous, kFragmented, kRandom };

/// A parsed --placement: N ranks, FILL in (0, 1] for fragmented, SEED for random.
struct PlacementSpec {
  PlacementKind kind = PlacementKind::kContiguous;
  std::size_t ranks = 0;
  double fill = 1.0;
  bool across = false;  ///< fragmented: rank across the leaves instead of leaf by leaf
  std::uint64_t seed = 0;
};

/// A job: its name (the --placement text or the --job file path) and rank i's endpoint index.
struct Job {
  std::string name;
  std::vector<std::uint32_t> ranks;
};

/// Parse "contiguous:N", "fragmented:N,FILL[,across]" or "random:N,SEED" (N >= 2). Errors: kInvalidInput quoting
/// the text and saying which part is wrong.
Result<PlacementSpec> parse_placement(std::string_view text);

/// The ranks of `spec` over endpoints whose leaf switch is leaf_of_endpoint[e] (comparison order).
/// Errors: kInvalidInput when the fabric has fewer than N endpoints or, fragmented, fewer than N hosts
/// at that fill.
Result<std::vector<std::uint32_t>> place_job(const PlacementSpec& spec, std::span<const SwitchIndex> leaf_of_endpoint);

/// Distinct leaves the ranks use.
std::size_t leaves_spanned(std::span<const std::uint32_t> ranks, std::span<const SwitchIndex> leaf_of_endpoint);

}  // namespace smd::roce
