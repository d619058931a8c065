// The nodes a record request can match. Every record the SA lists per node or per port (NodeRecord,
// PortInfoRecord, LinkRecord, SwitchInfoRecord, LFTRecord, MFTRecord, P_Key, SL2VL and VLArb table
// records) has the LID as its first field (IBA 15.2.5), so a request that sets ComponentMask bit 0 names
// one node; one rule for all of them, so no handler can enumerate what another would not, and one loop that
// stops where the collector has enough.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "routing/base/ids.h"
#include "smd/sa/sa_fabric.h"
#include "smd/sa/sa_query.h"

namespace smd::sa {

/// The LID in the first field of the request's record (bytes 0..1), when ComponentMask bit 0 is set.
std::optional<Lid> requested_lid(const SaQuery& q);

/// The owner of the requested LID (none when no port holds it), or every node of `f` in index order.
/// O(nodes).
std::vector<NodeIndex> candidate_nodes(const SaFabric& f, const SaQuery& q);

/// The enumeration every per-node record handler shares: `visit(n)` offers node n's records to `out`, for
/// each candidate node of `q` in order, until `out` is done (a Get that already has two matches, or the
/// record cap); then the answer `out` holds.
template <class Visit>
SaAnswer collect_per_node(const SaFabric& f, const SaQuery& q, RecordCollector& out, Visit visit) {
  for (NodeIndex n : candidate_nodes(f, q)) {
    visit(n);
    if (out.done()) break;
  }
  return std::move(out).finish();
}

}  // namespace smd::sa
