// The GUID files OpenSM's routing options name, read for the routing.<engine>.*_file policy keys:
//   - a GUID list (guid_routing_order_file, root_guid_file): one GUID a line;
//   - a GUID-to-id map (ids_guid_file): a switch GUID, blanks, an unsigned id, one pair a line.
// Both: a GUID is 0x hex (1..16 digits) or decimal; '#' starts a comment (a whole line or after the
// values); blank lines are skipped; CRLF reads as LF. Stricter than OpenSM, which skips what it cannot
// use: GUID 0, a GUID listed twice, a missing or malformed id and text after the values are errors, each at
// SOURCE:line:column (1-based, bytes). Cost: linear in the file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"
#include "routing/engines/option_reader.h"

namespace smd {

/// A GUID file larger than this is refused before it is parsed (~500,000 lines of 32 bytes).
inline constexpr std::size_t kMaxGuidFileBytes = 16u << 20;

/// Parse a GUID list; `source` names it in messages. Returns the GUIDs in file order.
/// Errors: kInvalidInput, the first problem as "SOURCE:L:C: message".
Result<std::vector<Guid>> parse_guid_list_file(std::string_view text, const std::string& source);

/// Parse a GUID-to-id map; `source` names it in messages. Returns the pairs in file order.
/// Errors: kInvalidInput, the first problem as "SOURCE:L:C: message".
Result<std::vector<GuidId>> parse_guid_id_file(std::string_view text, const std::string& source);

/// Read (read_regular_file, at most kMaxGuidFileBytes) and parse the file `path`.
/// Errors: kIo when it cannot be read ("cannot open GUID file PATH: ..."), else as the parsers.
Result<std::vector<Guid>> read_guid_list_file(const std::string& path);
Result<std::vector<GuidId>> read_guid_id_file(const std::string& path);

}  // namespace smd
