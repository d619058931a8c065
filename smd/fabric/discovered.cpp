#include "smd/fabric/discovered.h"

namespace smd {

std::string SweepProblem::to_string() const {
  std::string s;
  if (guid != 0) s += "node " + format_guid(guid) + " ";
  s += "at DR path " + path + ": " + attribute + ": " + reason;
  return s;
}

}  // namespace smd
