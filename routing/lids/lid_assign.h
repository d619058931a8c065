// LID assignment as the SM does it (IBA 7.11.1; OpenSM's guid2lid semantics): every switch port 0 and
// every CA port gets a LID; a port keeps the LID it already holds or the one remembered for its GUID.
#pragma once

#include <unordered_map>

#include "routing/model/lid_map.h"
#include "routing/model/topology.h"

namespace smd {

/// A remembered LID range per port GUID (guid2lid file or a previous sweep).
struct LidRange {
  Lid min = 0;
  Lid max = 0;

  bool operator==(const LidRange&) const = default;
};
using Guid2Lid = std::unordered_map<Guid, LidRange>;

struct LidAssignOptions {
  unsigned lmc = 0;            ///< CA ports get 2^lmc aligned LIDs; switch port 0 gets one LID
  bool keep_port_lids = true;  ///< reuse a valid LID found on the port (Port::lid, Port::lmc)
};

/// The highest LID every switch of `topo` can forward: one below the smallest LinearFDBCap (IBA 14.2.5.4),
/// or 0xBFFF when no switch reports one. assign_lids grants nothing above it.
unsigned max_forwardable_lid(const Topology& topo);

/// Assign LIDs. Preference per port: remembered (guid2lid) > found on the port > lowest free aligned range.
/// A preferred range is dropped when it clashes with one already granted, is misaligned for the LMC, or
/// exceeds the LID cap. The lowest free range avoids LIDs remembered for GUIDs not in `topo` (OpenSM keeps
/// them for ports that come back) and takes them only when nothing else is left. Errors: kInvalidInput when the ports
/// need more LIDs than fit below the smallest LinearFDBCap of the fabric's switches (or 0xBFFF).
/// `passed_over`, when given, receives one line per remembered range of a port in `topo` that was not kept
/// and why ("0x0000000000100002 0x0010-0x0011: 2 LIDs but LMC 0 gives the port 1"), so the caller can say so.
Result<LidMap> assign_lids(const Topology& topo, const Guid2Lid& remembered, const LidAssignOptions& options,
                           std::vector<std::string>* passed_over = nullptr);

/// The guid2lid view of a LidMap, keyed by port GUID (switches: node's port-0 GUID).
Guid2Lid to_guid2lid(const Topology& topo, const LidMap& lids);

/// Fold a sweep's `granted` LIDs into the `remembered` map that is written to the guid2lid file: granted
/// entries replace their GUID's old one, and a remembered entry of another GUID that overlaps a granted
/// range is forgotten, so the file never lists two GUIDs on one LID.
void merge_guid2lid(Guid2Lid& remembered, const Guid2Lid& granted);

}  // namespace smd
