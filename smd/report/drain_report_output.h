// The what-if drain report (`smd plan --drain`, `smctl what-if drain`) as text and JSON: a DrainReport
// (routing/whatif/drain_plan.h) with the names an operator knows (NodeDescription, GUID, LID). Output only;
// the what-if itself is computed in routing/whatif, and both commands print this one report.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/whatif/drain_plan.h"

namespace smd {

/// Wall time of a drain plan's steps, in ms. `what_if` is what_if_drain alone: the figure the issue's
/// one-second goal is about; `read` (netfile and policy), `lids` and `route_before` come before it.
struct DrainTimings {
  double read = 0;
  double lids = 0;
  double route_before = 0;
  double what_if = 0;
  double total = 0;
};

/// The report as one JSON object (keys documented in docs/man/smd.8 under --drain).
nlohmann::ordered_json drain_report_json(const Topology& topo, const std::string& engine_before, const DrainReport& rep,
                                         const DrainTimings& tm);

/// The report as aligned text lines, one figure per line, "before -> after" where both exist.
void print_drain_report(std::ostream& out, const Topology& topo, const std::string& engine_before,
                        const DrainReport& rep, const DrainTimings& tm);

}  // namespace smd
