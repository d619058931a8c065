// The CC agents a sweep's fabric has: where the congestion-control manager finds each (IBA A10.4: a switch's
// agent answers behind its port-0 LID, a CA's behind each port's own LID).
#pragma once

#include <vector>

#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "smd/cc/cc_plan.h"
#include "smd/state/node_names.h"

namespace smd {

/// Every switch with a port-0 LID and every cabled CA port with a LID, in node order. `lids` is the LID
/// assignment the sweep just programmed; `names` names the nodes in logs.
std::vector<CcTarget> cc_targets(const Topology& topo, const LidMap& lids, const NodeNames& names);

}  // namespace smd
