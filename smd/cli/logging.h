// Logging set-up from the policy: spdlog to stderr (or a file), level from log.level.
#pragma once

#include "config/policy.h"
#include "routing/base/status.h"

namespace smd {

/// Install the default spdlog logger. Errors: kInvalidInput for an unknown level, kIo when the file cannot
/// be opened.
Status setup_logging(const LogPolicy& log);

}  // namespace smd
