// InformDb: subscription matching by the InformInfo fields of IBA 13.4.8.3.
#include "smd/sa/inform_db.h"

#include <algorithm>

namespace smd::sa {

using namespace mad::sa;

namespace {
bool same_subscription(const Subscription& s, const Gid& gid, Lid lid, const InformInfo& i) {
  return s.subscriber_gid == gid && s.lid == lid && s.info.trap_number == i.trap_number &&
         s.info.is_generic == i.is_generic && s.info.producer_type == i.producer_type && s.info.type == i.type &&
         s.info.lid_range_begin == i.lid_range_begin && s.info.lid_range_end == i.lid_range_end && s.info.gid == i.gid;
}
}  // namespace

SaAnswer InformDb::set(const SaQuery& q, const Gid& subscriber_gid) {
  InformInfo info = InformInfo::decode(q.rec());
  if (info.type == mad::notice_type::kSecurity && !q.trusted) return SaAnswer::error(status::kReqInvalid);
  const Lid lid = q.requester_lid;
  if (info.subscribe) {
    const auto it = std::find_if(subs_.begin(), subs_.end(), [&](const Subscription& s) {
      return same_subscription(s, subscriber_gid, lid, info);
    });
    if (it != subs_.end()) {
      // The same subscription again (a client that restarted): it now wants its Reports where it says.
      it->qpn = info.qpn;
      it->info = info;
      it->trusted = q.trusted;
    } else {
      const auto from_port =
          std::count_if(subs_.begin(), subs_.end(), [&](const Subscription& s) { return s.lid == lid; });
      if (subs_.size() >= kMaxSubscriptions || static_cast<std::size_t>(from_port) >= kMaxSubscriptionsPerPort) {
        return SaAnswer::error(status::kNoResources);
      }
      subs_.push_back({next_id_++, subscriber_gid, lid, info.qpn, info, q.trusted});
    }
  } else {
    // Unsubscribing from nothing is an error (OpenSM ERR 4307, REQ_INVALID; osmtest -f v expects it).
    if (std::erase_if(subs_, [&](const Subscription& s) { return same_subscription(s, subscriber_gid, lid, info); }) == 0)
      return SaAnswer::error(status::kReqInvalid);
  }
  return SaAnswer::one(info);
}

SaAnswer InformDb::records(const SaQuery& q, std::uint32_t max_records) const {
  RecordCollector out(kInformInfoRecordLayout, q, max_records);
  for (const Subscription& s : subs_) {
    InformInfoRecord r;
    r.subscriber_gid = s.subscriber_gid;
    r.subscriber_enum = static_cast<std::uint16_t>(s.id);
    r.inform = s.info;
    r.encode(out.slot());
    if (out.offer() && out.done()) break;
  }
  return std::move(out).finish();
}

std::vector<Subscription> InformDb::subscribers(const mad::Notice& notice, Lid issuer_lid) const {
  std::vector<Subscription> out;
  for (const Subscription& s : subs_) {
    const InformInfo& i = s.info;
    if (i.is_generic != notice.is_generic) continue;
    // Security notices (bad M_Key, P_Key, Q_Key: IBA 14.2.5.1) tell an attacker what was noticed; a wildcard
    // Type from an untrusted requester does not reach them, as Type 2 itself is refused to it in set().
    if (notice.type == mad::notice_type::kSecurity && !s.trusted) continue;
    if (i.trap_number != kAllTraps && i.trap_number != notice.trap_number) continue;
    if (i.type != kAllTypes && i.type != notice.type) continue;
    if (i.producer_type != kAllProducers && i.producer_type != notice.producer_type) continue;
    if (i.gid != Gid{}) {
      // One issuer, named by its GID; the LID range does not apply then (IBA 13.4.8.3).
      if (!std::equal(i.gid.begin(), i.gid.end(), notice.issuer_gid.begin())) continue;
    } else if (i.lid_range_begin != kAllLids) {
      const Lid end = i.lid_range_end == 0 ? i.lid_range_begin : i.lid_range_end;
      if (issuer_lid < i.lid_range_begin || issuer_lid > end) continue;
    }
    out.push_back(s);
  }
  return out;
}

bool InformDb::drop(std::uint32_t id) {
  return std::erase_if(subs_, [&](const Subscription& s) { return s.id == id; }) != 0;
}

std::size_t InformDb::drop_absent(const std::function<bool(Guid)>& present) {
  return std::erase_if(subs_, [&](const Subscription& s) {
    Guid guid = 0;
    for (std::size_t i = 8; i < 16; ++i) guid = guid << 8 | s.subscriber_gid[i];  // GID: prefix, then GUID
    return !present(guid);
  });
}

}  // namespace smd::sa
