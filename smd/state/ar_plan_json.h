// The adaptive-routing plan as JSON: what `smd plan --ar-plan FILE` writes and what the daemon writes to
// state_dir/ar-plan.json after each routing pass, for a vendor AR backend or an operator to read.
// Shape (one object):
//   {"engine": "ftree", "max_lid": 1234,
//    "groups": [[17, 18, 19], [1], ...],                 distinct port sets, ascending ports
//    "switches": [{"guid": "0x0002c90000000001", "description": "sw-L0-0", "dr_path": "0,1",
//                  "group_of": [null, 3, 3, 0, ...]}]}   index = LID, value = index into "groups"
// Switches come in Topology::switches() order; a LID the switch does not route is null.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "routing/base/status.h"
#include "routing/model/adaptive.h"
#include "routing/model/forwarding.h"
#include "routing/model/topology.h"

namespace smd {

/// The JSON above for `tables.adaptive`. Errors: kInvalidInput when the tables carry no AR plan.
Result<nlohmann::ordered_json> ar_plan_to_json(const Topology& topo, const RoutingTables& tables);

/// Write ar_plan_to_json to `path` atomically (write_file_atomic: temp file, fsync, rename), so a reader
/// never sees half a plan. Errors: those of ar_plan_to_json; kIo naming the path.
Status write_ar_plan_file(const std::string& path, const Topology& topo, const RoutingTables& tables);

}  // namespace smd
