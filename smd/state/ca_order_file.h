// state_dir/ca-order: the CA order the routing engine optimised for (applications rank-order by it:
// shift patterns in this order are what the engine balanced). One line per CA:
//   <index> 0x<node GUID> <first cabled port> <NodeDescription>
// after a "#" header naming the engine. The description is written through printable_text
// (routing/base/safe_text.h), so a NodeDescription with a newline stays on its own line.
#pragma once

#include <string>

#include "routing/model/forwarding.h"
#include "routing/model/topology.h"

namespace smd {

/// The file's text for tables.ca_order ("" when the engine gave no order).
std::string ca_order_text(const Topology& topo, const RoutingTables& tables);

}  // namespace smd
