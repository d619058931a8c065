// ServiceRecord requests (IBA 15.2.5.14) with the SA's ownership and partition rules: who may see, register
// and remove which service. The store itself (matching, lease, persistence) is service_db.h.
//
//   Get/GetTable  an untrusted requester sees the services of the partitions it holds (partition_rules.h)
//   Set           an untrusted requester registers under its own GID and a P_Key it holds (else DENIED /
//                 REQ_INVALID); the record's GID must name a port of this subnet
//   Delete        an untrusted requester removes only its own records, whatever GID the template names
// A trusted requester (SM_Key) may do all three for any port, as OpenSM allows with the SM_Key.
#pragma once

#include <cstdint>

#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"
#include "smd/sa/sa_state.h"

namespace smd::sa {

/// ServiceRecord Get or GetTable: the matching services the requester may see (max sa.max_records).
SaAnswer find_service_records(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s);
/// ServiceRecord Set: register (or renew) one service; sets state.services_changed when it did.
SaAnswer set_service_record(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s);
/// ServiceRecord Delete: the records removed (the first in a single-MAD answer), NO_RECORDS for none.
SaAnswer delete_service_records(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s);

}  // namespace smd::sa
