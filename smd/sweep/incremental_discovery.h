// Incremental heavy sweep: after a link change, re-read only the switches that changed instead of the
// whole fabric. A trap 128 (IBA 14.2.5.1, LinkStateChange) names the switch whose port changed; its
// PortInfo tells which cables went down or came up, the far ends are read the same way, and a SwitchInfo
// poll of every switch (PortStateChange, IBA 14.2.5.4) finds what a lost trap did not name. On the
// 1728-host 12-ary 3-tree this is some 500 SMPs instead of the 21,000 of a full discovery.
//
// Anything the previous sweep's fabric cannot explain — a node not seen before, a cable that moved, a
// switch that does not answer — is not guessed at: the caller falls back to discover_fabric().
#pragma once

#include <string>
#include <vector>

#include "mad/transport/smp_batch.h"
#include "routing/base/status.h"
#include "smd/state/node_names.h"
#include "smd/sweep/discovery.h"

namespace smd {

/// The outcome of rediscover_changed(): the updated fabric, or why a full discovery is needed.
struct IncrementalDiscovery {
  /// Why a full discovery is needed instead, naming the node GUID, directed path and attribute: kTimeout
  /// (an SMP got no answer: a cable may have gone down meanwhile), kTransport (an SMA answered with an error
  /// status), kDeclined (what was read, or the lack of a usable last sweep, is beyond what the last sweep's
  /// fabric explains: a new node, moved cabling, a fabric still changing).
  Status status = Ok{};
  bool ok() const { return status.ok(); }
  /// status's message; empty when ok.
  std::string full_sweep_because() const { return ok() ? std::string() : status.error().message; }
  ObservedFabric fabric;            ///< when ok: `previous` with the changes applied, vetted
  std::size_t switches_reread = 0;  ///< switches whose every PortInfo was read again
  std::size_t cables_lost = 0, cables_gained = 0, nodes_lost = 0;
};

/// Update `previous` (a complete, configured sweep's fabric, with the SM's Sets recorded) for the link
/// changes of the switches with GUID in `changed` (trap issuers; more are found by PortStateChange).
/// Nodes cut off by lost cables leave the fabric; directed paths that crossed a lost cable are replaced
/// by shortest paths over what remains. The result is vetted like a full discovery (discovery_vet.h).
/// Never touches `previous`. `names` names nodes in the cable up/down log lines.
IncrementalDiscovery rediscover_changed(SmpBatch& batch, const ObservedFabric& previous,
                                        const std::vector<Guid>& changed, const NodeNames& names = NodeNames());

}  // namespace smd
