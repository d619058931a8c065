// The registry entry of torus-2QoS (routing.torus_2qos: config_file or the inline geometry).
#pragma once

#include "routing/engines/engine_factory.h"
#include "routing/engines/torus_2qos/torus_2qos_options.h"

namespace smd {

/// The factory the registry lists for "torus-2QoS".
const EngineFactory& torus_2qos_factory();

}  // namespace smd
