// Heavy sweep: breadth-first directed-route discovery of the whole fabric from the SM port
// (IBA 14.4 / OpenSM's "heavy sweep"). Every node gets NodeInfo, NodeDescription, SwitchInfo (switches)
// and PortInfo for each port; the window of the transport is kept full the whole time.
// On a lossy fabric a sweep can end with holes (an SMP that failed after all its retries); a re-sweep
// then asks again for exactly those attributes instead of reading the whole fabric once more.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "smd/fabric/observed.h"

namespace smd {

/// Run one heavy sweep. Never fails as a whole: unreadable nodes and impossible values become
/// `problems` (with GUID and path) and are left out of the topology: NumPorts 0 or above 254, an
/// unknown NodeType, LocalPortNum 0 or above NumPorts, a duplicate GUID (a node whose SystemImageGUID or
/// PortGUID differs from the first one with that GUID), a port claimed by two cables (duplicate GUID or
/// wrong LocalPortNum: both cables left out), paths beyond 63 hops, and whatever discovery_vet.h
/// removes afterwards (cables whose ends disagree, switches with LinearFDBCap 0, nodes cut off).
/// `last`, the sweep before (or null), says which nodes take PortInfo's SMSupportsExtendedSpeeds, so their
/// ports are read with it at once; a node met for the first time is asked as OpenSM does (without, then
/// again with it where the CapabilityMask shows extended speeds).
ObservedFabric discover_fabric(SmpBatch& batch, const ObservedFabric* last = nullptr);

/// Re-sweep only what `previous` could not read: NodeInfo out of every live port whose far end is
/// unknown, and every unread PortInfo, SwitchInfo and NodeDescription. What `previous` holds (including
/// the SM's own Sets recorded since) is kept, not read again; a node found now is swept in full.
/// `problems` of the result are the failures of this pass only. Meant for the fabric `previous` was read
/// from moments ago (bring-up re-sweeps); a fabric that changed since needs discover_fabric().
ObservedFabric resume_discovery(SmpBatch& batch, const ObservedFabric& previous);

/// How many attributes resume_discovery() would ask for (0: `d` is complete).
std::size_t discovery_gaps(const ObservedFabric& d);

/// The first of those attributes, "node 0x... at DR path 0,1,3: PortInfo 2" ("" when none).
std::string describe_first_gap(const ObservedFabric& d);

}  // namespace smd
