// MCMemberRecord: method dispatch over McastDb and the fabric facts of a join.
#include "smd/sa/mcmember_records.h"

#include <algorithm>

#include "smd/sa/rate.h"

namespace smd::sa {

using namespace mad::sa;

McastContext mcast_context(const SaSnapshot& snap) {
  McastContext ctx;
  const SaFabric& f = *snap.fabric;
  ctx.subnet_prefix = f.subnet_prefix();
  ctx.mlid_top = f.mlid_top();
  ctx.packet_life = snap.settings.packet_lifetime;
  ctx.consolidate_ipv6_snm = snap.settings.consolidate_ipv6_snm;
  ctx.port = [&snap](Guid guid) -> std::optional<McastPort> {
    const Endport* e = snap.fabric->by_guid(guid);
    if (!e) return std::nullopt;
    McastPort p;
    p.mtu = snap.fabric->mtu_cap(e->node, e->port);
    // The MTU the link carries (OpenSM af9fc7a1): a CA port's NeighborMTU when it was read.
    if (const mad::PortInfo* pi = snap.fabric->port_info(e->node, e->port); pi && pi->neighbor_mtu != 0)
      p.mtu = std::min(p.mtu, pi->neighbor_mtu);
    p.rate = snap.fabric->rate(e->node, e->port);
    // A group is never made faster than such a client can read; its joins are compared against this.
    if (snap.settings.original_rates_only) p.rate = original_rate_code(p.rate);
    p.pkeys = pkeys_of(snap, guid);
    return p;
  };
  return ctx;
}

SaAnswer answer_mcmember_records(const SaSnapshot& snap, const SaQuery& q, McastDb& db, std::vector<McastEvent>& events,
                                 bool& changed, std::string& why) {
  const Endport* from = snap.fabric->by_lid(q.requester_lid);
  const Guid requester = from ? from->guid : 0;
  const std::uint8_t m = q.method();
  if (m == method::kGet || m == method::kGetTable)
    return db.find(q, requester, snap.fabric->requester_pkeys(q.requester_lid), snap.fabric->subnet_prefix(),
                   snap.settings.max_records);
  if (m != method::kSet && m != method::kDelete) return SaAnswer::error(status::kMethodAttrUnsupported);
  // An SM that programs no MFTs (sm.multicast false) refuses a join as OpenSM's disable_multicast does, so the
  // host learns it is in no group instead of waiting for traffic that never comes; leaves still work.
  if (m == method::kSet && !snap.settings.multicast) {
    why = "multicast is disabled (sm.multicast: false)";
    return SaAnswer::error(status::kReqInvalid);
  }
  const McastContext ctx = mcast_context(snap);
  McastResult r = m == method::kSet ? db.join(q, requester, ctx) : db.leave(q, requester, ctx);
  events.insert(events.end(), r.events.begin(), r.events.end());
  changed = changed || r.changed;
  why = std::move(r.why);
  return std::move(r.answer);
}

}  // namespace smd::sa
