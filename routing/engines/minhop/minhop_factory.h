// The minhop engine's registry entry: reads routing.minhop (guid_routing_order) when the policy loads and
// builds the engine from it.
#pragma once

#include <memory>

#include "routing/engines/engine_factory.h"

namespace smd {

/// The factory the registry lists for "minhop".
const EngineFactory& minhop_factory();

/// Phase two in one call (tests, tools): minhop_factory().create(options).
std::unique_ptr<RoutingEngine> make_minhop_engine(const RoutingOptions& options);

}  // namespace smd
