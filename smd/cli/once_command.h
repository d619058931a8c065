// `smd --once`: open the SM port, run heavy sweeps until the subnet is up (at most 1 + sm.max_resweeps;
// fewer when the problems' codes say no re-sweep can help, smd/sm/sweep_decision.h),
// print the summary, and return the exit code: 0 when every port has its LID, every link is Active and
// every switch holds its tables; 1 otherwise (the summary names every failure); 2 when the port cannot
// be opened.
#pragma once

#include <ostream>

#include "config/policy.h"

namespace smd {

int run_once(const Policy& policy, std::ostream& out);

}  // namespace smd
