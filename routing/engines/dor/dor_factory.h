// The registry entry of dor (routing.dor: guid_routing_order).
#pragma once

#include "routing/engines/dor/dor_options.h"
#include "routing/engines/engine_factory.h"

namespace smd {

/// The factory the registry lists for "dor".
const EngineFactory& dor_factory();

}  // namespace smd
