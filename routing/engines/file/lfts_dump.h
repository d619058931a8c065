// An opensm-lfts.dump read back: the unicast LFTs OpenSM (osm_dump.c, log flag ROUTING) or smd (`smd plan
// --opensm-lfts`, `smctl dump lfts`, smd/dump/opensm_lfts.h) wrote, as data the file engine replays.
// The text is one section per switch:
//
//   Unicast lids [0-<top>] of switch Lid <lid> guid 0x<node GUID> ('<description>'):
//   0x<LID, hex> <port, decimal> # <anything: who holds the LID>
//   ...
//   <n> lids dumped
//
// Only the switch GUID, `top`, and each row's LID and port carry meaning; the switch's LID tells whether
// the fabric holds the dump's LIDs (the engine checks it); its description and every row's comment
// describe the fabric the dump was made on and are not checked.
// Blank lines are skipped. Anything else is refused: a dump that does not read cleanly is not replayed.
// Pure text -> data; no I/O (config/ reads the file). O(size of the text).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// A place in the dump, 1-based, for messages "source:line:column: ...".
struct DumpPlace {
  unsigned line = 0;
  unsigned column = 0;
};

/// One row: destination LID -> output port of this switch (0 = the switch itself).
struct DumpRoute {
  Lid lid = 0;
  PortNum port = 0;
  DumpPlace lid_at;   ///< where the LID is written
  DumpPlace port_at;  ///< where the port is written
};

/// One switch's section: its node GUID, LinearFDBTop and routes in file order (LIDs distinct, <= top).
struct DumpSwitch {
  Guid guid = 0;
  Lid top = 0;
  Lid lid = 0;        ///< the switch's own LID when the dump was made ("of switch Lid N"); 0 = not written
  DumpPlace lid_at;   ///< where that LID is written
  DumpPlace guid_at;  ///< where the GUID is written
  DumpPlace top_at;   ///< where `top` is written
  std::vector<DumpRoute> routes;
};

/// A whole dump: its sections in file order (GUIDs distinct) and the name messages use for it.
struct LftsDump {
  std::string source;  ///< the file's path as the operator gave it
  std::vector<DumpSwitch> switches;
};

/// "source:line:column: message", the one shape of every dump error.
std::string dump_message(const std::string& source, DumpPlace at, const std::string& message);

/// Parse `text`; `source` names it in errors. Errors (kInvalidInput, "source:line:column: ..."): a line
/// that is neither a section header (with a switch LID 1..0xBFFF when it has "of switch Lid"), a row, a "<n> lids
/// dumped" trailer nor blank; a row outside a section (before a header or after its trailer); a LID above 0xBFFF
/// (multicast) or above the section's top; a port above 254 (255 is "no route", which a dump leaves out); a LID listed
/// twice in one section; a switch GUID of 0 or listed twice; a dump without any section.
Result<LftsDump> parse_lfts_dump(std::string_view text, std::string source);

}  // namespace smd
