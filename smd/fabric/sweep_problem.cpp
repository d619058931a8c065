#include "smd/fabric/sweep_problem.h"

#include "routing/model/topology.h"

namespace smd {

const char* to_string(ProblemCode code) {
  switch (code) {
    case ProblemCode::kTimeout: return "timeout";
    case ProblemCode::kRefused: return "refused";
    case ProblemCode::kNotTaken: return "not-taken";
    case ProblemCode::kMalformed: return "malformed";
    case ProblemCode::kInconsistent: return "inconsistent";
    case ProblemCode::kCapacity: return "capacity";
    case ProblemCode::kNotActive: return "not-active";
    case ProblemCode::kNoRoute: return "no-route";
  }
  return "unknown";
}

std::string SweepProblem::to_string() const {
  std::string s;
  if (guid != 0) s += "node " + format_guid(guid) + " ";
  s += "at DR path " + path + ": " + attribute + ": " + reason;
  return s;
}

}  // namespace smd
