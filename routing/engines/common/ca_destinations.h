// The CA ports an engine routes to, as updn and ftree both start from them: the switch and port that
// deliver each one and its 2^LMC LIDs, and the empty tables those engines fill, CA order included.
#pragma once

#include <span>
#include <vector>

#include "routing/base/ids.h"
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

/// ca_destinations() in CA order = (delivering switch index, port, base LID): consecutive entries share a
/// destination switch, so updn and dnup compute one set of paths per switch. O(n log n).
std::vector<CaDestination> ca_order_destinations(const Topology& topo, const LidMap& lids,
                                                 const std::vector<LidTarget>& targets);

/// A routing order (routing.<engine>.guid_routing_order) applied to `cas`: the listed CA ports first, in
/// list order, then the others in their order (stable). GUIDs the fabric lacks are the caller's to report.
void put_listed_first(const Topology& topo, const LidMap& lids, std::span<const Guid> listed,
                      std::vector<CaDestination>& cas);

/// Tables to fill: an LFT of lids.max_lid() entries per switch of `graph`, and ca_order = the nodes of
/// `cas` in that order, each once (the order the engine balanced for). engine and deadlock_free are the
/// caller's to set.
RoutingTables ca_tables(const Topology& topo, const SwitchGraph& graph, const LidMap& lids,
                        const std::vector<CaDestination>& cas);

}  // namespace smd
