// Atomic replacement of a state file: write path.tmp, fsync, rename over path, fsync the directory.
// A crash leaves either the old file or the new one, never a half-written one.
#pragma once

#include <string>

#include "routing/status.h"

namespace smd {

/// Replace `path` with `content`. Errors: kIo naming the file and errno text; the old file stays intact.
Status write_file_atomic(const std::string& path, const std::string& content);

}  // namespace smd
