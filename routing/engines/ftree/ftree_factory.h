// The ftree engine's registry entry: reads routing.ftree (roots) when the policy loads and builds the
// engine from it.
#pragma once

#include <memory>

#include "routing/engines/engine_factory.h"
#include "routing/engines/ftree/ftree_options.h"

namespace smd {

/// The factory the registry lists for "ftree".
const EngineFactory& ftree_factory();

/// Phase two in one call (tests, tools): ftree_factory().create(options).
std::unique_ptr<RoutingEngine> make_ftree_engine(const RoutingOptions& options);

}  // namespace smd
