// The CA ports an engine routes to, as updn and ftree both start from them: the switch and port that
// deliver each one and its 2^LMC LIDs, and the empty tables those engines fill, CA order included.
#pragma once

#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/hop_table.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// One CA port as a destination: the switch that delivers it, the port there, its LIDs.
struct CaDestination {
  SwitchIndex sw;
  PortNum port;
  Lid base;
  unsigned count;  ///< 2^LMC
  NodeIndex node;
};

/// The CA ports of `lids` cabled to a switch (`targets` = lid_targets()), in LidMap entry order; switch
/// ports and CA ports without a switch peer are left out. O(LidMap entries).
std::vector<CaDestination> ca_destinations(const Topology& topo, const LidMap& lids,
                                           const std::vector<LidTarget>& targets);

/// Tables to fill: an LFT of lids.max_lid() entries per switch of `graph`, and ca_order = the nodes of
/// `cas` in that order, each once (the order the engine balanced for). engine and deadlock_free are the
/// caller's to set.
RoutingTables ca_tables(const Topology& topo, const SwitchGraph& graph, const LidMap& lids,
                        const std::vector<CaDestination>& cas);

}  // namespace smd
