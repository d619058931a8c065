// The registry entries of sssp (routing.sssp: guid_routing_order) and dfsssp (routing.dfsssp: max_vls,
// spread_vls, guid_routing_order).
#pragma once

#include "routing/engines/dfsssp/dfsssp_options.h"
#include "routing/engines/engine_factory.h"

namespace smd {

/// The factory the registry lists for "sssp".
const EngineFactory& sssp_factory();
/// The factory the registry lists for "dfsssp".
const EngineFactory& dfsssp_factory();

}  // namespace smd
