// Netfiles on disk: the bounded reads of config/text_file.h (regular files only, at most
// kMaxNetfileBytes) around the pure netfile parser and writer of routing/netfile, which take and give text.
#pragma once

#include <string>

#include "config/text_file.h"
#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "routing/netfile/netfile.h"

namespace smd {

/// The include reader of every netfile read from disk: the included file through read_regular_file
/// (kMaxNetfileBytes, named "netfile" in messages, so "cannot read netfile /dev/zero: it is a character
/// device, not a regular file"). All files it reads together may hold at most `budget_bytes`: a file that
/// includes a big one thousands of times would otherwise be parsed into gigabytes before any check ran.
NetfileIncludeReader netfile_file_includes(std::size_t budget_bytes = kMaxNetfileBytes);

/// Read the netfile `path` and what it includes (relative to the including file).
/// Errors: kIo from read_regular_file ("cannot open netfile PATH: ...", "cannot read netfile PATH: it is
/// a FIFO, not a regular file", "... larger than N bytes"), kInvalidInput when the file and its includes
/// add up to more than kMaxNetfileBytes; otherwise as parse_netfile.
Result<Topology> read_netfile_file(const std::string& path);

/// Render `topo` with write_netfile and write it to `path` (created or truncated).
/// Errors: as write_netfile (nothing written), plus kIo "PATH: cannot write".
Status write_netfile_file(const Topology& topo, const std::string& path);

}  // namespace smd
