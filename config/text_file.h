// Bounded reads of input files (netfiles, policies, guid2lid). A path given by an operator may name a
// device (/dev/zero), a FIFO or a socket, which would block the reader or never end; such files are
// refused, and a regular file larger than the caller's limit is refused before it is read.
#pragma once

#include <cstddef>
#include <string>

#include "routing/base/status.h"

namespace smd {

/// Limits for the files smd reads; far above any real input, far below what would exhaust memory.
inline constexpr std::size_t kMaxPolicyBytes = 1u << 20;     ///< 1 MiB of YAML
inline constexpr std::size_t kMaxNetfileBytes = 256u << 20;  ///< 256 MiB: ~40x a 32,768-host netfile
inline constexpr std::size_t kMaxGuid2LidBytes = 16u << 20;  ///< 16 MiB: ~10x a full 0xBFFF-LID file

/// Read all of the regular file `path`, at most `max_bytes` of it; `what` names the file in errors
/// ("policy file", "netfile").
/// Errors, all kIo: "cannot open WHAT PATH: <errno text>" (a missing file included);
/// "cannot read WHAT PATH: it is a character device, not a regular file" for devices, FIFOs, sockets and
/// directories; "cannot read WHAT PATH: larger than N bytes" when it holds more than `max_bytes` (counted
/// while reading, so a file that grows, or a /proc file whose size reads 0, is caught too); a read error.
Result<std::string> read_regular_file(const std::string& path, std::size_t max_bytes, const std::string& what);

/// What a stat(2) st_mode is, for messages: "a regular file", "a directory", "a character device", "a block
/// device", "a FIFO", "a socket", else "a special file".
const char* file_kind(unsigned mode);

}  // namespace smd
