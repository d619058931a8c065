// The per-port routing inputs OpenSM keeps in files keyed by switch node GUID, parsed for the balancing
// engines' *_file policy keys (config/ reads the file when the policy loads; the text is parsed here, so a
// bad file refuses the policy at start or reload and routing/ does no I/O):
//   - hop_weights_file:           "<switch guid> <port> <weight>" a line; weight 1..255 is the cost of
//                                 leaving the switch by that port (1 when unlisted) in the min-hop table;
//   - port_search_ordering_file:  "<switch guid> <port> <port> ..." a line; the switch's ports in the order
//                                 the balancing tries them (ties go to the earliest), unlisted ports after
//                                 the listed ones in port order;
//   - port_prof_ignore_file:      "<switch guid> <port>" a line; routes leaving by that port are not
//                                 counted in the switch's port profile (OpenSM's equalisation).
// Common to all (OpenSM's node-map format, `man opensm`): a GUID is 0x hex (1..16 digits) or decimal, a
// number 0x hex or decimal; '#' starts a comment, blank lines are skipped, CRLF reads as LF; a UTF-8
// byte-order mark at the start is named at SOURCE:1:1 (routing/base/word_lines.h). Stricter than
// OpenSM, which skips a line it cannot use: GUID 0, a port 0 or above 254, a weight 0 or above 255, a
// missing or extra word, a (switch, port) or a switch listed twice are errors at SOURCE:line:column (1-based,
// bytes). Whether the GUID names a switch of the fabric and the port one of its ports is known only when the
// engine runs: what the fabric lacks is skipped there and named in RoutingTables::notes. Cost: linear.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"
#include "routing/engines/option_reader.h"

namespace smd {

/// A port-input file larger than this is refused before it is parsed (~300,000 lines).
inline constexpr std::size_t kMaxSwitchPortFileBytes = 16u << 20;

/// One line of a hop_weights_file: leaving switch `sw` by `port` costs `weight` hops.
struct HopWeight {
  Guid sw = 0;
  PortNum port = 0;
  std::uint8_t weight = 1;
  bool operator==(const HopWeight&) const = default;
};

/// One line of a port_search_ordering_file: switch `sw` tries `ports` first, in this order.
struct PortSearchOrder {
  Guid sw = 0;
  std::vector<PortNum> ports;
  bool operator==(const PortSearchOrder&) const = default;
};

/// One line of a port_prof_ignore_file: routes out of (`sw`, `port`) are not counted.
struct SwitchPort {
  Guid sw = 0;
  PortNum port = 0;
  bool operator==(const SwitchPort&) const = default;
};

/// Parse a hop_weights_file; `source` names it in messages. Lines in file order.
/// Errors: kInvalidInput, the first problem as "SOURCE:L:C: message".
Result<std::vector<HopWeight>> parse_hop_weights(std::string_view text, const std::string& source);

/// Parse a port_search_ordering_file (at least one port a line, none twice). Errors as parse_hop_weights.
Result<std::vector<PortSearchOrder>> parse_port_search_ordering(std::string_view text, const std::string& source);

/// Parse a port_prof_ignore_file. Errors as parse_hop_weights.
Result<std::vector<SwitchPort>> parse_port_prof_ignore(std::string_view text, const std::string& source);

/// An engine's read of one such key (routing.<engine>.KEY, a path): the file read through `in` (a relative path
/// from the policy's folder) and parsed by `parse` into `out`, `path` keeping the path as written. A parse error
/// is reported at the key with the file's own file:line:column in the message. True when absent or good.
template <class T, class Parse>
bool read_switch_port_file(OptionReader& in, std::string_view key, Parse parse, std::string& path,
                           std::vector<T>& out) {
  OptionReader::File file;
  if (!in.read_file(key, kMaxSwitchPortFileBytes, file)) return false;
  if (file.path.empty()) return true;
  Result<std::vector<T>> parsed = parse(file.text, file.resolved);
  if (!parsed.ok()) {
    in.fail(key, parsed.error().message);
    return false;
  }
  path = std::move(file.path);
  out = std::move(parsed).value();
  return true;
}

}  // namespace smd
