// The registry entry of dnup (routing.dnup: guid_routing_order).
#pragma once

#include "routing/engines/dnup/dnup_options.h"
#include "routing/engines/engine_factory.h"

namespace smd {

/// The factory the registry lists for "dnup".
const EngineFactory& dnup_factory();

}  // namespace smd
