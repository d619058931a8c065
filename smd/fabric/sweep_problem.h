// SweepProblem: something a sweep could not read, could not believe or could not write, with a code that
// says what the caller does next (ask again, discover again, wait for the operator) and text that names the
// place: node GUID, directed path, attribute. The rest of the fabric still comes up.
#pragma once

#include <cstdint>
#include <string>

#include "routing/base/ids.h"

namespace smd {

/// What went wrong, in terms of what helps. The daemon and `smd --once` choose the next sweep from these
/// codes, never from the text (smd/sm/sweep_decision.h).
enum class ProblemCode : std::uint8_t {
  kTimeout,       ///< an SMP got no answer after all its retries (lost on a lossy link, or the node is gone)
  kRefused,       ///< the SMA answered with a MAD status error (unsupported attribute, bad value, 0x1C)
  kNotTaken,      ///< the SMA answered a Set but does not hold what was written (the GetResp did not echo it)
  kMalformed,     ///< a value that cannot be (NumPorts 0, unknown NodeType, LocalPortNum out of range)
  kInconsistent,  ///< answers that contradict each other (duplicate GUID, a port claimed by two cables,
                  ///< cable ends that disagree, a node the sweep cannot reach any more)
  kCapacity,      ///< the fabric cannot hold what the SM wants (LinearFDBCap, a path beyond 63 hops)
  kNotActive,     ///< a link did not reach Active (yet), or its state is unknown
  kNoRoute,       ///< no LIDs or no verified routes could be computed for the fabric as found
};

/// Short stable name of a code, for logs, JSON and metrics ("timeout", "refused", ...).
const char* to_string(ProblemCode code);

/// Something discovery or programming could not read, believe or write.
struct SweepProblem {
  ProblemCode code = ProblemCode::kTimeout;
  Guid guid = 0;          ///< node GUID when known, else 0
  std::string path;       ///< directed path "0,1,5"
  std::string attribute;  ///< "NodeInfo", "PortInfo 3", ...
  std::string reason;     ///< "timeout after 4 attempts", "duplicate GUID ...", ...
  /// "node 0x... at DR path 0,1: PortInfo 3: timeout after 4 attempts" (the node part only when known).
  std::string to_string() const;
};

}  // namespace smd
