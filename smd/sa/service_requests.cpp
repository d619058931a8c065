// ServiceRecord requests: the requester's identity and partitions decide what a request may touch.
#include "smd/sa/service_requests.h"

#include <algorithm>
#include <vector>

#include "mad/sa/service_record.h"
#include "smd/sa/partition_rules.h"
#include "smd/sa/port_gid.h"

namespace smd::sa {

using namespace mad::sa;

namespace {

/// The GUID of the requesting port, 0 when its LID names no endport of the snapshot.
Guid requester_guid(const SaFabric& f, const SaQuery& q) {
  const Endport* from = f.by_lid(q.requester_lid);
  return from ? from->guid : 0;
}

/// The GIDs an untrusted Delete may name: the template's own when it names the requester, else the
/// requester's GUID under each prefix it may have registered with (the subnet's, the default fe80:: and
/// its byte-swapped form that some clients send).
std::vector<Gid> deletable_gids(const SaQuery& q, std::uint64_t prefix, Guid own_guid) {
  const Gid asked = ServiceRecord::decode(q.rec()).service_gid();
  if (q.trusted || ((q.mask() & mask_bit(ServiceRecordField::kServiceGid)) && names_port(asked, prefix, own_guid)))
    return {asked};
  std::vector<Gid> forms;
  for (std::uint64_t p : {prefix, kDefaultGidPrefix, kDefaultGidPrefixByteSwapped}) {
    if (p == prefix && !forms.empty()) continue;  // the subnet prefix is the default one
    forms.push_back(make_gid(p, own_guid));
  }
  return forms;
}

/// `all` followed by the records of `more` (both of one record size).
void append_records(SaAnswer& all, SaAnswer&& more) {
  if (all.status != status::kOk) {
    all = std::move(more);
    return;
  }
  all.records.insert(all.records.end(), more.records.begin(), more.records.end());
  all.count += more.count;
}

}  // namespace

SaAnswer find_service_records(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s) {
  if (q.trusted) return state.services.find(q, now_s, snap.settings.max_records);
  const std::vector<PKey>& held = snap.fabric->requester_pkeys(q.requester_lid);
  return state.services.find(q, now_s, snap.settings.max_records,
                             [&](std::uint16_t pkey) { return may_use_pkey(held, pkey); });
}

SaAnswer set_service_record(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s) {
  // A port registers its own services; another port's need the SM_Key (IBA 15.2.5.14 leaves it to the SA;
  // without it any port could hijack every service on the subnet). Its own GID is its GUID under the
  // subnet prefix or the default fe80:: (port_gid.h); the record keeps the GID given.
  const SaFabric& f = *snap.fabric;
  const std::uint64_t prefix = f.subnet_prefix();
  const ServiceRecord rec = ServiceRecord::decode(q.rec());
  if (!q.trusted && !names_port(rec.service_gid(), prefix, requester_guid(f, q)))
    return SaAnswer::error(status::kDenied);
  if (!q.trusted && !may_use_pkey(f.requester_pkeys(q.requester_lid), rec.service_pkey()))
    return SaAnswer::error(status::kReqInvalid);
  SaAnswer ans = state.services.set(q, now_s, [&](const Gid& gid) {
    return subnet_gid_prefix(gid_prefix(gid), prefix) && f.by_guid(gid_guid(gid)) != nullptr;
  });
  if (ans.status == status::kOk) state.services_changed = true;
  return ans;
}

SaAnswer delete_service_records(const SaSnapshot& snap, SaState& state, const SaQuery& q, std::int64_t now_s) {
  const SaFabric& f = *snap.fabric;
  SaAnswer all = SaAnswer::error(status::kNoRecords);
  for (const Gid& gid : deletable_gids(q, f.subnet_prefix(), requester_guid(f, q))) {
    SaQuery one = q;
    if (!q.trusted) {
      std::copy(gid.begin(), gid.end(), one.record.begin() + 8);
      one.header.comp_mask |= mask_bit(ServiceRecordField::kServiceGid);
    }
    SaAnswer a = state.services.erase(one, now_s);
    if (a.status != status::kOk) continue;
    state.services_changed = true;
    append_records(all, std::move(a));
  }
  return all;
}

}  // namespace smd::sa
