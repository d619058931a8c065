// Policy loader: YAML text -> validated Policy. This is phase one of the two-phase configuration (see
// STYLE.md): every key, range, engine name and engine option is checked here (each engine's own section
// by that engine's factory, routing/engines/engine_factory.h), so the daemon and the engines can take a
// loaded Policy as valid. Errors name source:line:column and the key path.
#pragma once

#include <string>
#include <vector>

#include "config/policy.h"
#include "config/yaml_fields.h"
#include "routing/base/status.h"

namespace smd {

/// Load the policy in file `path`; Policy::source is set to `path`.
/// An empty file (or one holding only comments) gives every default.
/// Errors: kIo naming `path` when it cannot be read; otherwise as load_policy_string.
/// `notes`, when given, receives every key the loader asked for (config/yaml_fields.h KeyNote), in order.
Result<Policy> load_policy_file(const std::string& path, std::vector<KeyNote>* notes = nullptr);

/// Load a policy from YAML text; `source_name` prefixes every error and becomes Policy::source.
/// Errors: kInvalidInput "source:line:col: key.path: what is wrong" (line and column 1-based) for an unknown
/// key (with a did-you-mean suggestion), a duplicate key, a wrong type, an out-of-range or malformed number,
/// an unknown engine or log level, more than one YAML document; "source:line:col: YAML syntax error: ..."
/// when the text is not YAML. When several things are wrong, the one earliest in the text is reported.
Result<Policy> load_policy_string(const std::string& yaml, const std::string& source_name);
/// The same, noting every key the loader asks for into `notes` (nullptr: none).
Result<Policy> load_policy_string(const std::string& yaml, const std::string& source_name,
                                  std::vector<KeyNote>* notes);

/// Every key the loader knows, in its order, each with the value `policy` holds (typed keys) or nothing
/// (section and raw keys), none marked as written. The section readers derive the list, so a key added to
/// the loader is listed without more code. Caveats of the derivation: the engines' sections and qos read
/// into fresh values, so there the values are the defaults; partitions.list and the qos lists are raw keys.
std::vector<KeyNote> policy_key_values(const Policy& policy);

/// Refuse a policy file that users other than its owner could rewrite (it decides which SM port and keys
/// the daemon uses). The daemon calls this before load_policy_file; it is separate so that loader tests on
/// temporary files do not depend on the umask.
/// Errors: kIo naming `path` when it cannot be stat'ed; kInvalidInput naming the path and its octal mode
/// when the group-write or other-write bit is set.
Status check_policy_file_permissions(const std::string& path);

/// The routing.repair values: minimal, full.
const std::vector<std::string>& repair_mode_names();

/// The log.level values, in increasing severity: trace, debug, info, warn, error, critical, off.
const std::vector<std::string>& log_level_names();

}  // namespace smd
