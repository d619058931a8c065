// The updn engine's registry entry: reads routing.updn (roots, guid_routing_order, ids) when the policy loads and builds the
// engine from it.
#pragma once

#include "routing/engines/engine_factory.h"
#include "routing/engines/updn/updn_options.h"

namespace smd {

/// The factory the registry lists for "updn".
const EngineFactory& updn_factory();

}  // namespace smd
