// Atomic replacement of a state file: write path.tmp, fsync, rename over path, fsync the directory.
// A crash leaves either the old file or the new one, never a half-written one.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "routing/base/status.h"

namespace smd {

/// Replace `path` with `content`. Only a regular file or nothing may stand at `path`: a device node, FIFO,
/// symlink or directory is refused ("PATH is a FIFO, not a regular file; refusing to replace it"), and a
/// leftover or planted `path.tmp` is removed, never followed. Errors: kIo naming the file and errno text; the
/// old file stays intact.
Status write_file_atomic(const std::string& path, const std::string& content);

/// Replace `path` with what `fill` streams, the same way (same refusals), for content too big to hold as one string
/// (the RoCE plan of a large fabric is tens of MB). Errors: kIo naming the file when it cannot be created, written (the
/// stream fails), synced or renamed; the old file stays intact and the temporary is removed.
Status write_file_atomic_stream(const std::string& path, const std::function<void(std::ostream&)>& fill);

/// The first half of write_file_atomic for a writer of many files that makes them durable with one
/// syncfs instead of an fsync each (the FRR configs): `content` into `path`.tmp, with the same refusals,
/// not synced, not renamed. Errors: kIo as write_file_atomic; the temporary is removed.
Status write_temporary(const std::string& path, const std::string& content);

/// The second half: rename `path`.tmp over `path` (not synced). Errors: kIo naming `path`; the temporary
/// is removed.
Status commit_temporary(const std::string& path);

/// Instead of the second half: remove `path`.tmp (a writer of many files giving up part-way, so that
/// nothing it wrote is left beside the files it did not replace). A missing temporary is fine.
void discard_temporary(const std::string& path);

}  // namespace smd
