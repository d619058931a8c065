// Heavy sweep: breadth-first directed-route discovery of the whole fabric from the SM port
// (IBA 14.4 / OpenSM's "heavy sweep"). Every node gets NodeInfo, NodeDescription, SwitchInfo (switches)
// and PortInfo for each port; the window of the transport is kept full the whole time.
// On a lossy fabric a sweep can end with holes (an SMP that failed after all its retries); a re-sweep
// then asks again for exactly those attributes instead of reading the whole fabric once more.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mad/dr_path.h"
#include "mad/smp.h"
#include "routing/topology.h"
#include "smd/smp_batch.h"

namespace smd {

/// Something discovery could not read or could not believe; the rest of the fabric still comes up.
struct SweepProblem {
  Guid guid = 0;          ///< node GUID when known, else 0
  std::string path;       ///< directed path "0,1,5"
  std::string attribute;  ///< "NodeInfo", "PortInfo 3", ...
  std::string reason;     ///< "timeout after 4 attempts", "duplicate GUID ...", ...
  std::string to_string() const;
};

/// The discovered fabric plus the raw attributes later phases rewrite (read-modify-write).
struct Discovered {
  std::shared_ptr<Topology> topo;
  std::vector<std::vector<mad::SmpData>> port_info;  ///< [node][port] PortInfo as read (zeros if unread)
  std::vector<std::vector<bool>> port_info_valid;    ///< [node][port] true when PortInfo was read
  std::vector<std::vector<mad::DrPath>> port_path;   ///< [node][port] DR path to reach that port's SMA
  std::vector<mad::SmpData> switch_info;             ///< [node] SwitchInfo as read (switches)
  std::vector<bool> switch_info_valid;               ///< [node] true when SwitchInfo was read (switches)
  std::vector<bool> description_valid;               ///< [node] true when NodeDescription was read
  std::vector<SweepProblem> problems;
  std::uint64_t smps = 0;  ///< SMPs completed during the sweep
};

/// Run one heavy sweep. Never fails as a whole: unreadable nodes and impossible values become
/// `problems` (with GUID and path) and are left out of the topology: NumPorts 0 or above 254, an
/// unknown NodeType, LocalPortNum 0 or above NumPorts, a duplicate GUID (a node whose SystemImageGUID or
/// PortGUID differs from the first one with that GUID), a port claimed by two cables (duplicate GUID or
/// wrong LocalPortNum: both cables left out), paths beyond 63 hops, and whatever discovery_vet.h
/// removes afterwards (cables whose ends disagree, switches with LinearFDBCap 0, nodes cut off).
Discovered discover_fabric(SmpBatch& batch);

/// Re-sweep only what `previous` could not read: NodeInfo out of every live port whose far end is
/// unknown, and every unread PortInfo, SwitchInfo and NodeDescription. What `previous` holds (including
/// the SM's own Sets recorded since) is kept, not read again; a node found now is swept in full.
/// `problems` of the result are the failures of this pass only. Meant for the fabric `previous` was read
/// from moments ago (bring-up re-sweeps); a fabric that changed since needs discover_fabric().
Discovered resume_discovery(SmpBatch& batch, const Discovered& previous);

/// How many attributes resume_discovery() would ask for (0: `d` is complete).
std::size_t discovery_gaps(const Discovered& d);

/// The first of those attributes, "node 0x... at DR path 0,1,3: PortInfo 2" ("" when none).
std::string describe_first_gap(const Discovered& d);

}  // namespace smd
