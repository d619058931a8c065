// The policy's `multicast:` section (config/smd.yaml documents every key): how the SA allots MLIDs to the
// groups hosts create.
#pragma once

#include "config/policy.h"
#include "config/yaml_fields.h"

namespace smd {

/// Read `multicast` into `out`. Errors (in the reader's Diagnostics, at the value): a value that is not a
/// boolean, unknown keys.
void read_multicast(MapReader multicast, MulticastPolicy& out);

}  // namespace smd
