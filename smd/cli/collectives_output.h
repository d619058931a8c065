// The collectives of `smd plan --compare --collectives` (routing/roce/collective_eval.h) as JSON and as a
// text table. Infinite times (a flow without a route) are JSON null and "unrouted" in the table.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "routing/roce/collective_eval.h"

namespace smd {

/// [{name, job, leaves, ranks, phases, distinct_phases, flows, ideal_time, bus_factor, ideal_bus_bandwidth,
///   schemes[{name, time, relative_time, bus_bandwidth, slowest_phase, slowest_phase_ratio, unrouted,
///   hottest_cables (of the slowest phase), cables_at_max_load}]}];
/// times in units of S / line rate, bandwidths as shares of line rate.
nlohmann::ordered_json collectives_json(const std::vector<roce::CollectiveResult>& collectives);

/// [{from, from_guid, from_port, to, to_guid, to_port, load}]: switch cables (roce/hot_cables.h), names as
/// valid UTF-8, loads in flows.
nlohmann::ordered_json hot_cables_json(const std::vector<roce::HotCable>& cables);

/// Per job a line "job NAME: R ranks on L leaves", then one row per (collective, scheme): phases, time relative to
/// ideal, bus bandwidth, slowest phase.
void print_collectives(std::ostream& out, const std::vector<roce::CollectiveResult>& collectives);

}  // namespace smd
