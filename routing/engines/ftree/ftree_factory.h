// The ftree engine's registry entry: reads routing.ftree (roots) when the policy loads and builds the
// engine from it.
#pragma once

#include "routing/engines/engine_factory.h"
#include "routing/engines/ftree/ftree_options.h"

namespace smd {

/// The factory the registry lists for "ftree".
const EngineFactory& ftree_factory();

}  // namespace smd
