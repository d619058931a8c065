// The minhop engine's registry entry. minhop has no options of its own, so routing.minhop is not a
// policy key; it only takes what every engine takes (RoutingOptions).
#pragma once

#include "routing/engines/engine_factory.h"

namespace smd {

/// The factory the registry lists for "minhop".
const EngineFactory& minhop_factory();

}  // namespace smd
