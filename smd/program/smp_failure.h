// The ProblemCode of an SMP that did not end well: the seam between the transport's outcome
// (mad::SmpOutcome) and what a sweep problem says the caller should do.
#pragma once

#include "mad/transport/transport.h"
#include "smd/fabric/sweep_problem.h"

namespace smd {

/// kRefused for an answer with a MAD status error (the SMA will say the same again), kTimeout for no
/// answer, a failed send or a stopped transport (asking again may work).
inline ProblemCode failure_code(const mad::SmpReply& reply) {
  return reply.outcome == mad::SmpOutcome::kBadStatus ? ProblemCode::kRefused : ProblemCode::kTimeout;
}

}  // namespace smd
