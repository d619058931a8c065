// MCMemberRecord requests (attribute 0x0038, IBA vol. 1, 15.2.5.17) answered from the SA's McastDb: Set
// joins (and creates), Delete leaves, Get/GetTable list memberships. The fabric facts a join needs (the
// port's MTU, rate and P_Keys, the MLID range) come from the snapshot.
#pragma once

#include "smd/sa/mcast_db.h"
#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"

namespace smd::sa {

/// What McastDb needs from `snap`: the subnet prefix, the MLID top (SaFabric::mlid_top), the SM's
/// PacketLifeTime and each port's MTU (the smaller of MTUCap and NeighborMTU), rate and P_Keys.
/// `snap.fabric` must be set; the context refers to `snap`, which must outlive it.
McastContext mcast_context(const SaSnapshot& snap);

/// Answer one MCMemberRecord request. Joins and leaves change `db` and add to `events` (traps 66/67);
/// `changed` is set when the groups or their members changed; `why` says why a request failed.
SaAnswer answer_mcmember_records(const SaSnapshot& snap, const SaQuery& q, McastDb& db, std::vector<McastEvent>& events,
                                 bool& changed, std::string& why);

}  // namespace smd::sa
