// PerfTarget: one port the PerfMgr reads, as the SM publishes them after every configuring sweep: where its
// PMA answers (IBA 16.1: a switch's PMA sits behind its port-0 LID and PortSelect picks the port; a CA's
// behind the port's own LID) and how logs, smctl and metrics name it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "smd/state/node_names.h"
#include "smd/state/port_counters_view.h"

namespace smd {

struct PerfTarget {
  PortKey key;  ///< (node GUID, port number)
  Guid port_guid = 0;
  Lid lid = 0;  ///< the PMA's LID (a switch's port-0 LID)
  std::string node_desc;  ///< the node's display name (NodeNames)
  std::string peer;       ///< "<peer's display name> port <n>"
};

/// Every cabled port with a LID to reach it by (ports 1..N; a switch's port 0 carries no cable), in node
/// order. `lids` is the LID assignment the sweep just programmed; `names` names the nodes. `ignore_cas`
/// (perfmgr.ignore_cas, OpenSM's perfmgr_ignore_cas) leaves out the ports of CAs: their PMAs get no MAD,
/// while the switch ports facing them are still read, so each host link is still counted from one end.
std::vector<PerfTarget> perf_targets(const Topology& topo, const LidMap& lids, const NodeNames& names,
                                     bool ignore_cas = false);

/// `targets` without the ports whose PMA no LID route reaches, read on `routed` (the topology the programmed
/// tables were routed on: drained and isolated cables gone): a switch cut off from the SM's node (a
/// drained switch keeps its LID, but no route leads to it: each of its ports would time out every pass), a
/// CA port whose own cable is gone or whose node is cut off. Nodes are matched by GUID. `skipped` is set to
/// the number of ports left out. Without an SM node in `routed` every target is kept. Linear.
std::vector<PerfTarget> lid_reachable(std::vector<PerfTarget> targets, const Topology& routed, std::size_t& skipped);

}  // namespace smd
