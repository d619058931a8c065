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
/// The PerfMgr's families (`smd_perfmgr_*` and every `smd_port_*` counter, total and rate per port) come last,
/// from PerfView::metrics_text when the PerfMgr rendered them already, else rendered here.
std::string render_metrics(const FabricSnapshot& snap);

/// The PerfMgr's families of one view (what PerfView::metrics_text holds): the pass cost, then for each of the
/// 13 PortCounters counters and the 4 data counters one family with a sample per port, labelled node_guid,
/// node_desc, port and peer.
std::string render_perfmgr_metrics(const PerfView& view);

}  // namespace smd
