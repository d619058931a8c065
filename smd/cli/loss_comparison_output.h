// `smd plan --fail PART`: the IB-vs-RoCE comparison before and after the loss (routing/roce/compare.h,
// compare_before_after), printed side by side or returned as JSON. The tables after are the daemon's
// repair (routing/whatif/fabric_loss.h); this file only presents them.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "routing/model/topology.h"
#include "routing/roce/compare.h"
#include "routing/whatif/fabric_loss.h"

namespace smd {

/// "sw-L1-0, sw-L0-0[13]": the failed parts as given, for titles and the first line of the table.
std::string failed_parts_text(const FabricLoss& loss);

/// {"failed": [{"text", "kind": "switch"|"cable", "node_guid", "port"?, "peer_guid"?, "peer_port"?}],
///  "cables", "nodes_gone", "ib_static": {"engine", "made_by", "entries_kept", "entries_repaired", "deadlock_free",
///  "ca_deadlock_free"}, "cut_off_endpoints": [names], "comparison": the whole comparison after
///  (comparison_json)}. The comparison before is the caller's, under its usual key.
nlohmann::ordered_json loss_json(const Topology& topo, const FabricLoss& loss, const roce::LossComparison& lc);

/// After the comparison before (print_comparison): what failed and how IB's tables were repaired, the
/// notes after, then per (job, collective) and scheme the time relative to ideal before and after, and per
/// (pattern, scheme) max link load, max-min throughput and unrouted flows before and after.
void print_loss_comparison(std::ostream& out, const FabricLoss& loss, const roce::LossComparison& lc);

}  // namespace smd
