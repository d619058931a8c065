// Prometheus text exposition (format 0.0.4) of the daemon's counters and fabric gauges, rendered from
// one frozen FabricSnapshot: a scrape reads no live state and takes no lock.
#pragma once

#include <string>

#include "smd/state/fabric_snapshot.h"

namespace smd {

/// Content-Type of render_metrics()'s output.
inline constexpr const char* kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

/// Every smd_* metric with its HELP and TYPE lines: sweep and SMP counters, node/link gauges, last heavy
/// sweep duration and last repair time (seconds), and smd_sm_state{state=...} 1 for the current state.
std::string render_metrics(const FabricSnapshot& snap);

}  // namespace smd
