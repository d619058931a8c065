// MultiPathRecord GetMulti (IBA vol. 1, 15.2.5.20): the PathRecords between every source GID and every
// destination GID of the request, each pair answered as a PathRecord GetTable with the same properties
// (path_records.h), NumbPath paths per pair. A request whose GID counts do not fit what it carries is
// REQ_INVALID; one without SGIDCount/DGIDCount in the mask or with no GIDs on a side is
// INSUF_COMPS (OpenSM answers the same). The answer's records are PathRecords.
#pragma once

#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"

namespace smd::sa {

SaAnswer answer_multi_path_records(const SaSnapshot& snap, const SaQuery& q);

}  // namespace smd::sa
