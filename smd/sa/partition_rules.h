// The SA's partition rules (IBA 10.9, 15.2.5; OpenSM osm_pkey.c and osm_sa_path_record.c): the one place
// that decides who may see whom, and what, by P_Key. Pure functions of the endports' P_Key sets, which come
// from the last sweep's partition plan (SaFabric::pkeys). The pairwise IBA 10.9.3 match itself is
// routing's pkeys_match (a full member talks to any member of its partition; two limited members do not;
// P_Key 0 and 0x8000 hold nothing); every SA record handler asks here, never pkeys_match directly.
//
//   - Visibility of an endport (NodeRecord, PortInfoRecord, PathRecord ends, another port's MCMemberRecord):
//     the requester and the endport share a partition (visible_to). A trusted requester (SM_Key) sees
//     everything, as it may read the P_Key tables themselves.
//   - Holding a P_Key (a multicast group's, MCMemberRecord Get of a group): an entry of the same 15-bit base,
//     full or limited (holds_pkey); a limited member is a member.
//   - A P_Key a record is filed under (ServiceRecord): P_Key 0 names no partition and is anyone's; any other
//     must be held (may_use_pkey).
//   - PathRecord P_Key: with P_Key in the ComponentMask the source and destination must hold entries of that
//     base that match each other, and the answer carries the requested value; otherwise the first entry of
//     the source's set (partition order, so the index-0 P_Key first) that matches one of the destination's.
//     A QoS level that lists P_Keys narrows both to its list.
//     A limited source and a limited destination of one base share nothing: no path.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "routing/partitions/partition_plan.h"

namespace smd::sa {

/// The P_Key a path from an endport holding `src` to one holding `dst` carries (the source's entry, with
/// its membership bit), nullopt when they share no partition. `wanted`: the request's P_Key (its base is
/// what counts; the answer echoes it as given). `allowed`: the P_Key bases the path's QoS level allows
/// (SA-NOTES §1.3), empty for any; a wanted P_Key outside them gives no path.
std::optional<PKey> path_pkey(const std::vector<PKey>& src, const std::vector<PKey>& dst, std::optional<PKey> wanted,
                              std::span<const PKey> allowed = {});

/// True when a requester holding `requester` may see records of an endport holding `port` (IBA 10.9.3:
/// some entry of one matches some entry of the other; `trusted`: the SM_Key was given).
bool visible_to(const std::vector<PKey>& requester, const std::vector<PKey>& port, bool trusted);

/// True when a port with P_Key table `pkeys` holds P_Key `pkey`: an entry of the same 15-bit base, full or
/// limited (IBA 10.9.1).
bool holds_pkey(const std::vector<PKey>& pkeys, PKey pkey);

/// True when a port holding `pkeys` may file a record under `pkey`, or see one filed under it: P_Key 0 names
/// no partition (anyone's), any other must be held (OpenSM osm_physp_has_pkey).
bool may_use_pkey(const std::vector<PKey>& pkeys, PKey pkey);

}  // namespace smd::sa
