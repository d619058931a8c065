// Netfiles on disk: the bounded reads of config/text_file.h (regular files only, at most
// kMaxNetfileBytes) around the pure netfile parser and writer of routing/netfile, which take and give text.
#pragma once

#include <string>

#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "routing/netfile/netfile.h"

namespace smd {

/// The include reader of every netfile read from disk: the included file through read_regular_file
/// (kMaxNetfileBytes, named "netfile" in messages, so "cannot read netfile /dev/zero: it is a character
/// device, not a regular file").
NetfileIncludeReader netfile_file_includes();

/// Read the netfile `path` and what it includes (relative to the including file).
/// Errors: kIo from read_regular_file ("cannot open netfile PATH: ...", "cannot read netfile PATH: it is
/// a FIFO, not a regular file", "... larger than N bytes"); otherwise as parse_netfile.
Result<Topology> read_netfile_file(const std::string& path);

/// Render `topo` with write_netfile and write it to `path` (created or truncated).
/// Errors: as write_netfile (nothing written), plus kIo "PATH: cannot write".
Status write_netfile_file(const Topology& topo, const std::string& path);

}  // namespace smd
