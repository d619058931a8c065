// The guid2lid file, in OpenSM's format so operators can migrate either way:
//   0x<port GUID, 16 hex> 0x<min LID, 4 hex> 0x<max LID, 4 hex>
// one line per port. Written to a temp file, fsync'd, renamed over the old one (never half-written).
#pragma once

#include <string>
#include <vector>

#include "routing/lid_assign.h"
#include "routing/status.h"

namespace smd {

/// What reading a guid2lid file produced: the valid entries, and one message per bad line
/// ("guid2lid:12: expected 3 fields") — a corrupt line is skipped, never fatal.
struct Guid2LidLoad {
  Guid2Lid entries;
  std::vector<std::string> problems;
};

/// Read `path`. A missing file is an empty map, not an error; other I/O failures are kIo.
Result<Guid2LidLoad> read_guid2lid(const std::string& path);

/// Write `entries` (sorted by LID) atomically: path.tmp, fsync, rename, fsync of the directory.
/// Errors: kIo naming the path and errno text; the old file stays intact on failure.
Status write_guid2lid(const std::string& path, const Guid2Lid& entries);

}  // namespace smd
