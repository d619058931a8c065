// The registry entry of lash (routing.lash: max_vls, spread_vls).
#pragma once

#include "routing/engines/engine_factory.h"
#include "routing/engines/lash/lash_options.h"

namespace smd {

/// The factory the registry lists for "lash".
const EngineFactory& lash_factory();

}  // namespace smd
