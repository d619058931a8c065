// The registry entries of sssp (routing.sssp: guid_routing_order) and dfsssp (routing.dfsssp: max_vls,
// spread_vls, guid_routing_order).
#pragma once

#include <memory>

#include "routing/engines/dfsssp/dfsssp_options.h"
#include "routing/engines/engine_factory.h"

namespace smd {

/// The factory the registry lists for "sssp".
const EngineFactory& sssp_factory();
/// The factory the registry lists for "dfsssp".
const EngineFactory& dfsssp_factory();

/// Phase two in one call (tests, tools).
std::unique_ptr<RoutingEngine> make_sssp_engine(const RoutingOptions& options);
std::unique_ptr<RoutingEngine> make_dfsssp_engine(const RoutingOptions& options);

}  // namespace smd
