// Several jobs running the same collective at once on one fabric: their phases' flows evaluated
// together, so one job's flows slow the other's where they share a cable (the neighbour effect of a
// shared cluster). The model has no timeline of overlapping phases, so it merges phase i of every job
// into one phase, which is exact only when the jobs' phases match one to one: the same number of phases
// with the same repeat count and per-flow volume, i.e. the same collective over the same rank count.
#pragma once

#include <span>
#include <string>

#include "routing/base/status.h"
#include "routing/roce/collectives.h"

namespace smd::roce {

/// One collective whose phase i holds the flows of phase i of every job, named after the first job's
/// collective; ranks = the sum. `names` are the jobs' names for messages. Errors: kInvalidInput when
/// fewer than 2 jobs are given, two jobs share an endpoint, or their phases differ in count, repeat or
/// volume (message naming both jobs).
Result<Collective> merge_jobs_at_once(std::span<const Collective> per_job, std::span<const std::string> names);

}  // namespace smd::roce
