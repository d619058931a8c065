// Naming what to drain: the parts an operator lists before maintenance (`smd plan --drain`,
// `smctl what-if drain`), resolved against one Topology. Two kinds of part:
//   - a switch: its node GUID ("0x0002c90300001234") or its NodeDescription (the netfile's id, e.g.
//     sw-L0-0, quotes optional; a quoted name is only a NodeDescription, and a name that reads as one
//     node's GUID and another's NodeDescription is refused as ambiguous);
//   - a cable: one of its ends, "GUID/PORT" or "NAME[PORT]" (ibsim's console form, "sw-L0-0"[13]).
// A CA is never drained whole: name its cable. `smd plan --fail` names the parts that fail the same way. Everything is
// decided before anything is computed, so a typo stops the what-if with the argument named instead of reporting on a
// fabric nobody asked about.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/model/topology.h"

namespace smd {

/// One part to drain, resolved. For a switch `port` is 0 and the peer fields are unused; for a cable
/// (node, port) is the end named and (peer, peer_port) the other end.
struct DrainPart {
  enum class Kind : unsigned char { kSwitch, kCable };
  Kind kind = Kind::kSwitch;
  std::string text;  ///< the argument as given, for messages and the report
  NodeIndex node = kNoNode;
  PortNum port = 0;
  NodeIndex peer = kNoNode;
  PortNum peer_port = 0;
};

/// Resolve one argument (grammar in the header comment). Errors, kInvalidInput, each "OPTION 'TEXT': why"
/// (`option` is the command-line option that named the part): unknown GUID or name, a name several
/// switches share, a CA named without a port, a port the node does not have, a port without a cable, a
/// malformed GUID or port number.
Result<DrainPart> resolve_drain_part(const Topology& topo, const std::string& text,
                                     std::string_view option = "--drain");

/// Resolve every argument, in order; the first error stops it. Errors: as resolve_drain_part, and
/// kInvalidInput "OPTION: nothing named" for an empty list.
Result<std::vector<DrainPart>> resolve_drain_parts(const Topology& topo, std::span<const std::string> texts,
                                                   std::string_view option = "--drain");

/// Refuse a list that names one part twice: the same switch, or one cable by the same end or by both
/// ends. `smd plan --fail` and `--drain` and `smctl what-if drain` would otherwise report on a list the
/// operator did not mean (a typo for another part is the usual cause). Errors: kInvalidInput
/// "OPTION 'SECOND': the same switch|cable as 'FIRST'".
Status distinct_drain_parts(std::span<const DrainPart> parts, std::string_view option = "--drain");

/// What the daemon's two commands read (`smctl drain` and `smctl what-if drain`, one grammar): every
/// argument resolved as resolve_drain_parts does, then a part named again (the same switch, or one cable
/// by the same end or by both ends) kept once, at its first place, as undrain does. Errors: as
/// resolve_drain_parts.
Result<std::vector<DrainPart>> resolve_drain_request(const Topology& topo, std::span<const std::string> texts,
                                                     std::string_view option);

}  // namespace smd
