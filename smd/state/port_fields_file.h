// The port-fields state file (state_dir/port-fields): AppliedPortFields kept across restarts, so a new smd
// process knows which ports answered its Sets of the SM-owned PortInfo fields with another value than they
// were sent (ibsim, for SubnetTimeOut and the thresholds) and does not write them all again. One line per
// port: "0x<node GUID 16 hex> <port> <code>/<echo> x 9" in PortField order, "-" for a field never sent.
#pragma once

#include <string>
#include <vector>

#include "routing/base/status.h"
#include "smd/fabric/applied_port_fields.h"

namespace smd {

/// The file's name in state_dir.
inline constexpr const char* kPortFieldsFile = "port-fields";

/// The file's text for `fields` (deterministic: one line per port in (GUID, port) order).
std::string format_port_fields(const AppliedPortFields& fields);

/// What a port-fields file read back holds, and every line skipped, as "line N: why".
struct PortFieldsFile {
  AppliedPortFields fields;
  std::vector<std::string> problems;
};

/// Parse the text of a port-fields file. Never fails: a bad line (not 11 fields, a GUID or port that is no
/// number, a code or echo above 255) is named in `problems` and skipped; the others are kept.
PortFieldsFile parse_port_fields(const std::string& text);

/// Read `path`; an absent file is an empty record. Errors: kIo (not a regular file, too large, unreadable).
Result<PortFieldsFile> read_port_fields(const std::string& path);
/// Write `fields` to `path` atomically (write_file_atomic). Errors: kIo.
Status write_port_fields(const std::string& path, const AppliedPortFields& fields);

}  // namespace smd
