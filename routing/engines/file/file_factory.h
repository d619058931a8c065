// The file engine's registry entry (routing.file: lfts_file).
#pragma once

#include <cstddef>

#include "routing/engines/engine_factory.h"
#include "routing/engines/file/file_options.h"

namespace smd {

/// Largest opensm-lfts.dump read: ~7x the 70 MB dump of a 1728-host, 432-switch 3-tree.
inline constexpr std::size_t kMaxLftsDumpBytes = 512u << 20;

/// The factory the registry lists for "file".
const EngineFactory& file_factory();

}  // namespace smd
