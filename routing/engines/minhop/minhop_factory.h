// The minhop engine's registry entry: reads routing.minhop (guid_routing_order) when the policy loads and
// builds the engine from it.
#pragma once

#include "routing/engines/engine_factory.h"

namespace smd {

/// The factory the registry lists for "minhop".
const EngineFactory& minhop_factory();

}  // namespace smd
