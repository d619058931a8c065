// The guid2lid file, in OpenSM's format so operators can migrate either way:
//   0x<port GUID, 16 hex> 0x<min LID, 4 hex> 0x<max LID, 4 hex>
// one line per port. Written to a temp file, fsync'd, renamed over the old one (never half-written).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "routing/base/status.h"
#include "routing/lids/lid_assign.h"

namespace smd {

/// What reading a guid2lid file produced: the valid entries, and one message per bad line
/// ("/var/lib/smd/guid2lid:12: expected '0xGUID 0xMINLID 0xMAXLID'") — a bad line is skipped, never fatal.
struct Guid2LidLoad {
  Guid2Lid entries;
  std::vector<std::string> problems;
  std::unordered_map<Guid, unsigned> lines;  ///< the file line (from 1) of each entry, for later warnings
};

/// Parse the text of a guid2lid file named `name` (for messages). Never fails as a whole: a line is kept
/// only when it has exactly three 0x-hex fields, its LIDs are unicast (1..0xBFFF), min <= max, the range
/// is an LMC range (2^n LIDs, n <= 7, starting at a multiple of 2^n), its GUID is not listed earlier and
/// none of its LIDs belongs to an earlier entry; otherwise a problem "NAME:LINE: what" is recorded and
/// the earlier entry wins. A last line without its newline that does not parse is reported as truncated.
Guid2LidLoad parse_guid2lid(std::string_view text, const std::string& name);

/// Read and parse `path`. A missing file is an empty map, not an error.
/// Errors: kIo for a file that cannot be read, is not a regular file (a FIFO, /dev/zero) or is larger
/// than kMaxGuid2LidBytes (config/text_file.h); the caller carries on without remembered LIDs.
Result<Guid2LidLoad> read_guid2lid(const std::string& path);

/// One warning per entry of `load` (read from `name`) that the fabric cannot keep because a LID of it is
/// above max_forwardable_lid(topo), i.e. at or past some switch's LinearFDBCap: "NAME:LINE: GUID 0x...
/// LID 0x0200 is above 0x00ff, the highest LID every switch can forward (smallest LinearFDBCap); the port
/// gets a new LID". Ordered by line. assign_lids passes such an entry over, so without this the operator's
/// LID would vanish without a word naming the line to fix.
std::vector<std::string> guid2lid_above_lft_cap(const Guid2LidLoad& load, const std::string& name,
                                                const Topology& topo);

/// The file's text for `entries`: one line per entry, sorted by min LID (then GUID).
std::string format_guid2lid(const Guid2Lid& entries);

/// Write format_guid2lid(entries) atomically: path.tmp, fsync, rename, fsync of the directory.
/// Errors: kIo naming the path and errno text; the old file stays intact on failure.
Status write_guid2lid(const std::string& path, const Guid2Lid& entries);

}  // namespace smd
