// The policy's `perfmgr:` and `health:` sections (config/smd.yaml documents every key): how the
// Performance Manager reads port counters, and which counters and link flaps mark a port unhealthy.
#pragma once

#include "config/policy.h"
#include "config/yaml_fields.h"

namespace smd {

/// Read `perfmgr` into `out`. Errors (in the reader's Diagnostics, at the value): out-of-range numbers, unknown
/// keys, a timeout that cannot fit its retries into one interval.
void read_perfmgr(MapReader perfmgr, PerfMgrPolicy& out);

/// Read `health` into `out`. `thresholds` is a mapping of counter names (kHealthThresholdKeys) to counts per
/// interval, each 0..2^32-1; a name not in the list is an unknown key. Errors as read_perfmgr.
void read_health(MapReader health, HealthPolicy& out);

}  // namespace smd
