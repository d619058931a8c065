// The file engine's registry entry: reads routing.file (lfts_file) when the policy loads, parsing the dump
// then so that a malformed one refuses the policy at start or reload, and builds the engine from it.
#pragma once

#include <cstddef>
#include <memory>

#include "routing/engines/engine_factory.h"
#include "routing/engines/file/file_options.h"

namespace smd {

/// Largest opensm-lfts.dump read: ~7x the 70 MB dump of a 1728-host, 432-switch 3-tree.
inline constexpr std::size_t kMaxLftsDumpBytes = 512u << 20;

/// The factory the registry lists for "file".
const EngineFactory& file_factory();

/// Phase two in one call (tests, tools): file_factory().create(options).
std::unique_ptr<RoutingEngine> make_file_engine(const RoutingOptions& options);

}  // namespace smd
