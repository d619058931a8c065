// The SA's partition rules (IBA 10.9, 15.2.5; OpenSM osm_pkey.c and osm_sa_path_record.c): which records a
// requester may see and which P_Key a path carries. Pure functions of the endports' P_Key sets, which come
// from the last sweep's partition plan (SaFabric::pkeys).
//
//   - Visibility: a requester sees a node's, port's or path's record only when it shares a partition with
//     that endport (pkeys_share: the same base in both sets, at least one of the two entries full). A
//     trusted requester (SM_Key) sees everything, as it may read the P_Key tables themselves.
//   - PathRecord P_Key: with P_Key in the ComponentMask the source and destination must hold entries of that
//     base that match each other, and the answer carries the requested value; otherwise the first entry of
//     the source's set (partition order, so the index-0 P_Key first) that matches one of the destination's.
//     A limited source and a limited destination of one base share nothing: no path.
#pragma once

#include <optional>
#include <vector>

#include "routing/partitions/partition_plan.h"

namespace smd::sa {

/// The P_Key a path from an endport holding `src` to one holding `dst` carries (the source's entry, with
/// its membership bit), nullopt when they share no partition. `wanted`: the request's P_Key (its base is
/// what counts; the answer echoes it as given).
std::optional<PKey> path_pkey(const std::vector<PKey>& src, const std::vector<PKey>& dst, std::optional<PKey> wanted);

/// True when a requester holding `requester` may see records of an endport holding `port`.
inline bool visible_to(const std::vector<PKey>& requester, const std::vector<PKey>& port, bool trusted) {
  return trusted || pkeys_share(requester, port);
}

}  // namespace smd::sa
