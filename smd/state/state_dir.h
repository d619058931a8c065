// sm.state_dir checked and made before anything is sent: every state file (guid2lid, ca-order, the RoCE
// plan, FRR configs, SA groups and services) lives there, and a sweep that brought the fabric up must not
// end with "done" while none of them could be kept (`smd --once` used to exit 0 with a regular file or
// /dev/null as state_dir, its errors only in the log).
#pragma once

#include <string>

#include "routing/base/status.h"

namespace smd {

/// Make `path` (and what is missing above it) a directory smd can write files into. Errors (kIo):
/// "sm.state_dir PATH is a regular file, not a directory" (likewise a FIFO, a device, ...), or what
/// creating it or probing it for writing said (errno text).
Status prepare_state_dir(const std::string& path);

}  // namespace smd
