// Text written into generated YAML (smd import-opensm-conf): a file name from opensm.conf may hold any
// bytes but a newline, and a plain or naively quoted scalar turns some of them into something else on the
// way back (U+0085 and U+2028 are line breaks to YAML 1.1 readers such as PyYAML, C1 controls and U+FFFE
// are outside YAML's character set, a `"` ends the scalar).
#pragma once

#include <string>
#include <string_view>

#include "routing/base/status.h"

namespace smd {

/// `text` as a YAML double-quoted scalar (quotes included) that yaml-cpp and PyYAML both read back as
/// exactly `text` (YAML 1.2 section 5.7 escapes, which YAML 1.1 has too): `"` and `\` escaped; C0
/// controls and DEL as \xNN; C1 controls (U+0085 among them), U+2028, U+2029, U+FEFF, U+FFFE and U+FFFF
/// as \uXXXX; every other character as it is.
/// Errors: kInvalidInput, naming the byte offset, when `text` is not valid UTF-8: a YAML scalar holds
/// characters, not bytes, so no escape brings such a name back byte for byte.
Result<std::string> yaml_double_quoted(std::string_view text);

}  // namespace smd
