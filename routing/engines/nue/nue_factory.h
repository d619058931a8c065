// The registry entry of nue (routing.nue: max_vls, include_switches).
#pragma once

#include "routing/engines/engine_factory.h"
#include "routing/engines/nue/nue_options.h"

namespace smd {

/// The factory the registry lists for "nue".
const EngineFactory& nue_factory();

}  // namespace smd
