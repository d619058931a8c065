// Netfile syntax layer (internal to netfile.cpp): turns the lines of an ibsim netfile or of ibnetdiscover
// output into plain node records with source locations. Links are checked and built in netfile.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"
#include "routing/model/topology.h"
#include "routing/netfile/netfile.h"

namespace smd::netfile {

/// A place in an input file, for error messages ("fabric.net:12:7").
struct Location {
  std::string file;
  int line = 0;
  int column = 0;

  std::string str() const { return file + ":" + std::to_string(line) + ":" + std::to_string(column); }
};

/// Width/speed one end of a cable asks for: IBA LinkWidth/LinkSpeed bit masks (0 = not stated).
/// A "4xEDR"-style comment states a single bit; `w=`/`s=` state a mask.
struct LinkRate {
  unsigned width_mask = 0;  ///< 1=1x 2=4x 4=8x 8=12x 16=2x
  unsigned speed_mask = 0;  ///< 1=SDR 2=DDR 4=QDR (extended speeds folded into QDR)
};

/// One `[p] "peer"[q] ...` line.
struct PortLine {
  unsigned port = 0;
  std::string peer_id;
  unsigned peer_port = 0;
  LinkRate rate;
  std::optional<std::uint64_t> port_guid;  ///< "[1](e41d2d0300a1b2c3)": a CA port's own GUID as printed
  Lid own_lid = 0;                         ///< CA port line comment "lid N lmc M" (ibnetdiscover), 0 if absent
  std::uint8_t own_lmc = 0;
  Location at;       ///< the '[' of the local port
  Location peer_at;  ///< the opening quote of the peer id
  Location peer_port_at;
};

/// One node block: header plus its port lines. GUIDs are already assigned the ibsim way.
struct NodeRecord {
  NodeType type = NodeType::kCa;
  unsigned num_ports = 0;
  std::string id;           ///< the quoted id links refer to
  std::string description;  ///< header `# "desc"` or the id
  Guid guid = 0;
  Lid port0_lid = 0;  ///< switch "port 0 lid N lmc M" (ibnetdiscover), 0 if absent
  std::uint8_t port0_lmc = 0;
  bool discovered = false;  ///< written by ibnetdiscover (a vendid=/devid=/sysimgguid= line came before it)
  Location at;
  std::vector<PortLine> lines;
};

/// Parse `text` (named `name`), following includes through `read_include`; appends to `out` in file order.
/// Errors: kInvalidInput "file:line:column: what"; an include `read_include` cannot read, with its error
/// (kIo for a file that cannot be opened) after "file:line:column: include: ".
Status parse_records(std::string_view text, const std::string& name, const NetfileIncludeReader& read_include,
                     std::vector<NodeRecord>& out);

}  // namespace smd::netfile
