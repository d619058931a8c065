// Port configuration phases of a sweep (IBA 14.4.x; OpenSM's "LIDs assigned", "links armed",
// "links active"): PortInfo Set of LID, LMC, MasterSMLID and GID prefix on every endport that needs it,
// then every cabled port Init -> Armed, then Armed -> Active. Every Set is read-modify-write of the
// PortInfo read during discovery, with PortState/PortPhysicalState as NOP unless that is the change.
#pragma once

#include <cstdint>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/model/lid_map.h"
#include "smd/fabric/discovered.h"

namespace smd {

struct PortConfigOptions {
  std::uint64_t subnet_prefix = 0xfe80000000000000ULL;
  Lid sm_lid = 0;  ///< MasterSMLID written to every endport
  /// M_Key, MKeyProtectBits and M_KeyLeasePeriod (s) written to every endport (IBA 14.2.4); with
  /// m_key 0 a port's M_Key fields are left as they are.
  std::uint64_t m_key = 0;
  std::uint8_t m_key_protect = 0;
  std::uint16_t m_key_lease_period_s = 0;
};

/// Counts of one phase, for the sweep summary.
struct PhaseCounts {
  unsigned sets = 0;       ///< PortInfo Sets sent
  unsigned ok = 0;         ///< Sets whose response (or read-back) showed the wanted value
  unsigned skipped = 0;    ///< ports already right (no SMP)
  unsigned read_back = 0;  ///< PortInfo Gets after a Set that failed, to learn whether it was done
};

/// Set LID/LMC/MasterSMLID/GID prefix on every endport whose PortInfo differs. Updates `d.port_info`
/// with the responses; failures become `problems`.
PhaseCounts configure_endports(SmpBatch& batch, Discovered& d, const LidMap& lids, const PortConfigOptions& opt,
                               std::vector<SweepProblem>& problems);

/// Move every cabled port whose state is `from` to `to` (Init->Armed or Armed->Active), both ends of
/// each link, NeighborMTU and OperationalVLs agreed with the peer when arming.
/// A PortState Set is not idempotent: when its GetResp is lost the port has moved, and the retry is
/// refused (status 0x1C: the port is already in `to`). So every Set that does not end kOk is followed by
/// a PortInfo Get, and only a port that is not in `to` after it is a problem; a port whose read-back
/// fails too is marked unread (a re-sweep reads it again).
PhaseCounts transition_links(SmpBatch& batch, Discovered& d, PortState from, PortState to,
                             std::vector<SweepProblem>& problems);

/// Cabled ports (switch external ports and CA ports) that are not Active or were not read, each named
/// by node GUID, the directed path to its SMA and "PortState <port>".
std::vector<SweepProblem> ports_not_active(const Discovered& d);

}  // namespace smd
