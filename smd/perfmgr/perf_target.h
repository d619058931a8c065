// PerfTarget: one port the PerfMgr reads, as the SM publishes them after every configuring sweep: where its
// PMA answers (IBA 16.1: a switch's PMA sits behind its port-0 LID and PortSelect picks the port; a CA's
// behind the port's own LID) and how logs, smctl and metrics name it.
#pragma once

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

}  // namespace smd
