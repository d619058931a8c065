// Human-readable views of control responses, as smctl prints them without --json. Input is the
// "result" member of an ok response; the JSON shapes are the ones control_protocol.h documents.
#pragma once

#include <ostream>
#include <string>

#include "smd/protocol/control_protocol.h"

namespace smd::control {

/// Print `result` of command `cmd` (status, nodes, lfts, route, sweep, reroute, report, export) as text.
/// Unknown commands and unexpected shapes fall back to indented JSON, never throw.
void render_text(std::ostream& out, const std::string& cmd, const Json& result);

}  // namespace smd::control
