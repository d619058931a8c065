// The routing order (OpenSM's guid_routing_order_file): the order in which a balancing engine visits
// destination LIDs. Each destination takes the least-loaded of its equal-cost ports at the moment it is
// routed, so the ports listed first get the emptiest paths: a scheduler that lists its job's hosts in rank
// order gets those hosts' routes spread over distinct links before anyone else's are placed.
// OpenSM's minhop and updn honour the file (osm_ucast_mgr.c builds the port order once per sweep);
// its ftree, dfsssp and the other engines ignore it. smd's minhop and updn honour it likewise, and so do
// sssp and dfsssp (an extension: they balance per destination too). ftree keeps its own CA order: it
// routes by its leaf and port indexing to stay shift-optimal, which a foreign order would break.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/engines/engine_factory.h"
#include "routing/engines/engine_options.h"
#include "routing/engines/option_reader.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// The LIDs a balancing engine routes, in the order it routes them, and the listed GUIDs that name no
/// port with a LID (the engine reports them; OpenSM skips them the same way).
struct DestinationOrder {
  std::vector<Lid> lids;
  std::vector<Guid> unknown;
};

/// Destination LIDs for the port GUIDs `guids` (distinct; switch port-0 and CA port GUIDs alike):
///   - `guids` empty: every assigned LID in increasing order, the engines' own order;
///   - else in 2^LMC rounds, round x taking LID base+x of every port that has it, as OpenSM's unicast
///     manager does: first the listed ports in list order, then every other port in base-LID order.
/// Cost O(LIDs + guids).
DestinationOrder destination_order(const Topology& topo, const LidMap& lids, std::span<const Guid> guids);

/// The note an engine adds to RoutingTables::notes for `unknown` GUIDs of routing.<engine>.guid_routing_order
/// ("" when none): they are skipped, as in OpenSM, and named so a typo is found. At most 8 are listed.
std::string unknown_order_note(std::string_view engine, const std::vector<Guid>& unknown);

/// "KEY: 2 GUIDs name no WHAT, skipped: 0x... 0x..." for listed GUIDs an engine found nothing for ("" when
/// none), at most 8 of them named: the note engines add to RoutingTables::notes so a typo is found.
std::string skipped_guids_note(std::string_view key, std::string_view what, const std::vector<Guid>& unknown);

/// How a routing order reads in the one-line policy summary (space-separated key=value pairs): "none" when
/// empty, else the number of GUIDs ("3"): the list itself can hold thousands.
std::string summarise_order(const std::vector<Guid>& guids);

/// Reads routing.<engine>.guid_routing_order (an inline list) or guid_routing_order_file (a file of
/// OpenSM's format) into `out`; both at once is an error at the file key. True when nothing was wrong.
bool read_routing_order(OptionReader& in, std::vector<Guid>& out);

/// The options of an engine whose section holds only its routing order (minhop, sssp, dor): each derives
/// from this and names its section in kEngine.
struct RoutingOrderOptions : EngineOptions {
  /// routing.<engine>.guid_routing_order (or _file): port GUIDs whose LIDs are routed first, in this order;
  /// empty = increasing LID order.
  std::vector<Guid> guid_routing_order;

  /// Read guid_routing_order or its _file (read_routing_order); false when refused.
  bool read(OptionReader& in) { return read_routing_order(in, guid_routing_order); }
  /// The routing order as summarise_order prints it.
  std::vector<OptionSummary> summary() const { return {{"guid_routing_order", summarise_order(guid_routing_order)}}; }
};

}  // namespace smd
