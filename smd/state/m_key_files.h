// The two state files that let a restarted smd manage ports protected by M_Keys (security.m_key_per_port):
//   guid2mkey: "0x<port GUID, 16 hex> 0x<M_Key, 16 hex>" per line, as OpenSM writes its guid2mkey: the key
//              each endport was last seen or set to hold;
//   neighbors: which port GUID a directed route reaches, before any SMP has been answered (at protection
//              level 2 and 3 a port does not answer a Get without its key, so smd must know whose port a path
//              ends at before it asks). smd's own format, one cable end per line:
//                "0x<node GUID> <port> 0x<peer node GUID> <peer port> 0x<peer key port GUID> switch|ca"
//              and one line for the SM's own port: "sm 0x<node GUID> <port> 0x<key port GUID> switch|ca".
//              The key port is the port whose M_Key guards SMPs arriving there: switch port 0, or the CA port.
// Both are replaced atomically (smd/state/atomic_file.h); a bad line is reported and skipped, never fatal.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd {

/// Port GUID -> the M_Key that port holds (IBA 14.2.5.6 PortInfo:M_Key).
using Guid2MKey = std::map<Guid, std::uint64_t>;

/// One end of a cable as the directed route arrives at it.
struct MKeyHop {
  Guid node = 0;      ///< NodeGUID
  PortNum port = 0;   ///< the port the SMP arrives on (the SM's own port for MKeyNeighbors::sm)
  Guid key_port = 0;  ///< the port GUID whose M_Key the SMA checks: switch port 0, or this CA port
  bool is_switch = false;
  bool operator==(const MKeyHop&) const = default;
};

/// The fabric's cables as (node GUID, out port) -> the far end, and where the SM sits.
struct MKeyNeighbors {
  MKeyHop sm;  ///< node 0: unknown
  std::map<std::pair<Guid, PortNum>, MKeyHop> links;
  bool operator==(const MKeyNeighbors&) const = default;
};

/// What reading one of the files produced: the valid entries, and "NAME:LINE: what" per skipped line.
template <typename T>
struct MKeyFileLoad {
  T entries;
  std::vector<std::string> problems;
};

/// Parse guid2mkey text (`name` for messages): exactly two 0x-hex fields; a GUID listed twice keeps its first key.
MKeyFileLoad<Guid2MKey> parse_guid2mkey(std::string_view text, const std::string& name);
std::string format_guid2mkey(const Guid2MKey& keys);
/// Parse neighbors text: the line shapes above; ports 0..254; a repeated (node, port) keeps its first line.
MKeyFileLoad<MKeyNeighbors> parse_neighbors(std::string_view text, const std::string& name);
std::string format_neighbors(const MKeyNeighbors& neighbors);

/// Read and parse; a missing file is empty, not an error. Errors: kIo for a file that cannot be read, is not a
/// regular file or is larger than kMaxGuid2LidBytes (config/text_file.h).
Result<MKeyFileLoad<Guid2MKey>> read_guid2mkey(const std::string& path);
Result<MKeyFileLoad<MKeyNeighbors>> read_neighbors(const std::string& path);

}  // namespace smd
