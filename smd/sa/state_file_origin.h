// Which SM wrote an SA state file (the groups and services files), and whether an SM that starts serving
// may take it back. An SM's own file is stale once another master has run the subnet: that master may have
// deleted a group and given its MLID to another, and restoring the file would bring the group back on top.
// A file another SM wrote (a state_dir shared with the standby) holds that SM's latest state and is taken.
#pragma once

#include <optional>
#include <string>

#include "routing/base/ids.h"

namespace smd::sa {

/// `json` (a JSON object, as McastDb::to_json and ServiceDb::to_json make it) with the key "written_by"
/// set to `writer` as "0x" and 16 hex digits. Text that is not a JSON object is returned unchanged.
std::string stamp_writer(const std::string& json, Guid writer);

/// The "written_by" port GUID of a stamped file; nullopt when the text is not a JSON object or has no
/// valid stamp (files from smd before it stamped them).
std::optional<Guid> file_writer(const std::string& json);

/// Whether an SM whose port GUID is `self` restores a state file written by `writer` when it starts
/// serving. `other_master_seen`: another SM was master since this one last served (or started). A file of
/// unknown origin is restored, as before stamps existed.
bool restore_state_file(std::optional<Guid> writer, Guid self, bool other_master_seen);

}  // namespace smd::sa
