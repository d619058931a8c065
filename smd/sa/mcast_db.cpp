// McastDb: join, leave, listing and the members of each group. The create (mcast_create.cpp), the policy
// (mcast_policy.cpp) and the groups file (mcast_db_load.cpp, mcast_db_text.cpp) are beside it.
#include "smd/sa/mcast_db.h"

#include <algorithm>

#include "smd/sa/ipv6_snm.h"
#include "smd/sa/mcast_rules.h"
#include "smd/sa/partition_rules.h"
#include "smd/sa/rate.h"

namespace smd::sa {

using namespace mad::sa;

using namespace mcast;

namespace {

/// The record of a join or leave, its PortGID under this subnet's prefix (fe80:: stands for it); or the
/// refusal: `needs` when the mask lacks MGID, PortGID or JoinState, a PortGID of another subnet.
std::optional<McastResult> read_membership(const SaQuery& q, const McastContext& ctx, const char* needs,
                                           McMemberRecord& req) {
  if ((q.mask() & kJoinNeeds) != kJoinNeeds) return refusal(status::kInsufficientComponents, needs);
  req = McMemberRecord::decode(q.rec());
  if (gid_prefix(req.port_gid) == kLinkLocalPrefix) req.port_gid = make_gid(ctx.subnet_prefix, gid_guid(req.port_gid));
  if (gid_prefix(req.port_gid) != ctx.subnet_prefix) return refusal(status::kReqInvalid, "PortGID of another subnet");
  return std::nullopt;
}

}  // namespace

std::vector<McastGroupGuids> members_by_mlid(const std::vector<McastGroupMembers>& groups) {
  std::map<Lid, std::set<Guid>> by_mlid;
  for (const McastGroupMembers& g : groups) {
    std::set<Guid>& ports = by_mlid[g.mlid];
    for (const auto& [guid, join_state] : g.members) {
      if (join_state != 0) ports.insert(guid);
    }
  }
  std::vector<McastGroupGuids> out;
  out.reserve(by_mlid.size());
  for (const auto& [mlid, ports] : by_mlid) out.push_back({mlid, std::vector<Guid>(ports.begin(), ports.end())});
  return out;
}

McMemberRecord McastGroup::record(const Gid& port_gid, std::uint8_t js) const {
  McMemberRecord r;
  r.mgid = mgid;
  r.port_gid = port_gid;
  r.q_key = q_key;
  r.mlid = mlid;
  r.mtu_selector = selector::kExactly;
  r.mtu = mtu;
  r.tclass = tclass;
  r.pkey = pkey;
  r.rate_selector = selector::kExactly;
  r.rate = rate;
  r.life_selector = selector::kExactly;
  r.packet_life = packet_life;
  r.sl = sl;
  r.flow_label = flow_label;
  r.hop_limit = hop_limit;
  r.scope = scope;
  r.join_state = js;
  return r;
}

std::optional<Lid> McastDb::shared_snm_mlid(const McastGroup& g, Lid top) const {
  // One family's MGIDs differ only in their last 3 bytes: they sit together in the ordered map.
  for (auto it = groups_.lower_bound(snm_family_first(g.mgid));
       it != groups_.end() && same_snm_family(it->first, g.mgid); ++it) {
    if (may_share_mlid(it->second, g) && it->second.mlid <= top) return it->second.mlid;
  }
  return std::nullopt;
}

void McastDb::add_bits(McastGroup& g, Guid port, std::uint8_t bits) {
  std::uint8_t& js = g.members[port];
  const std::uint8_t fresh = static_cast<std::uint8_t>(bits & ~js & 0xF);
  for (unsigned i = 0; i < 4; ++i) g.bit_count[i] += (fresh >> i) & 1u;
  js = static_cast<std::uint8_t>(js | fresh);
}

bool McastDb::remove_bits(std::map<Gid, McastGroup>::iterator it, Guid port, std::uint8_t bits) {
  McastGroup& g = it->second;
  const auto m = g.members.find(port);
  if (m != g.members.end()) {
    const std::uint8_t gone = static_cast<std::uint8_t>(m->second & bits);
    for (unsigned i = 0; i < 4; ++i) g.bit_count[i] -= (gone >> i) & 1u;
    m->second = static_cast<std::uint8_t>(m->second & ~gone);
    if (m->second == 0) {
      g.members.erase(m);
      g.self_joined.erase(port);
    }
  }
  // IBA 15.2.5.17: a group lives while it has a full (or send-only full) member.
  if (g.well_known || g.bit_count[0] != 0 || g.bit_count[3] != 0) return false;
  mlids_.release(g.mlid);
  groups_.erase(it);
  return true;
}

McastResult McastDb::join(const SaQuery& q, Guid requester, const McastContext& ctx) {
  const std::uint64_t mask = q.mask();
  McMemberRecord req;
  if (std::optional<McastResult> refused = read_membership(q, ctx, "a join needs MGID, PortGID and JoinState", req))
    return std::move(*refused);
  const Guid guid = gid_guid(req.port_gid);
  const std::optional<McastPort> port = ctx.port(guid);
  if (!port) return refusal(status::kReqInvalid, "unknown port");
  req.join_state &= 0xF;
  if (req.join_state == 0) return refusal(status::kReqInvalid, "JoinState 0");
  if (guid != requester) {
    const std::optional<McastPort> from = requester ? ctx.port(requester) : std::nullopt;
    if (!from || !visible_to(from->pkeys, port->pkeys, false))
      return refusal(status::kReqInvalid, "proxy join for a port that shares no P_Key with the requester");
  }

  McastResult out;
  McastGroup* g = nullptr;
  const auto it = is_zero_gid(req.mgid) ? groups_.end() : groups_.find(req.mgid);
  if (it == groups_.end()) {
    // One untrusted port may not take the MLID space from every other: at most an eighth of it (64 at
    // least) in MLIDs of groups it created that still exist. IPoIB needs a handful per port. A group that
    // shares an MLID already in use (a consolidated IPv6 SNM group) takes none.
    std::string no_new_mlid;
    if (!q.trusted && requester != 0) {
      const std::size_t space = ctx.mlid_top >= kMlidFirst ? ctx.mlid_top - kMlidFirst + 1u : 0u;
      const std::size_t cap = std::max<std::size_t>(64, space / 8);
      std::set<Lid> created;
      for (const auto& [mgid, other] : groups_) {
        if (other.created_by == requester) created.insert(other.mlid);
      }
      if (created.size() >= cap)
        no_new_mlid = "the requester already created groups on " + std::to_string(created.size()) +
                      " MLIDs (at most " + std::to_string(cap) + " per port)";
    }
    g = create(req, mask, *port, ctx, out, no_new_mlid);
    if (!g) return out;
    g->created_by = requester;
  } else {
    g = &it->second;
    if (guid != requester && !q.trusted && g->self_joined.contains(guid))
      return refusal(status::kReqInvalid, "the port joined for itself: no other port may change its membership");
    if (!holds_pkey(port->pkeys, g->pkey)) return refusal(status::kReqInvalid, "the port does not hold the group's P_Key");
    if (std::string why = mismatch(*g, req, mask); !why.empty()) return refusal(status::kReqInvalid, why);
    // A member the group's packets cannot reach at its MTU or rate would get none of them (OpenSM's
    // validate_port_caps refuses such a join too).
    if (g->mtu > port->mtu) return refusal(status::kReqInvalid, "the group's MTU is beyond the port's MTUCap");
    if (rate_half_gbps(g->rate) > rate_half_gbps(port->rate))
      return refusal(status::kReqInvalid, "the group's rate is beyond the port's");
  }
  const auto before = g->members.find(guid);
  const std::uint8_t had = before == g->members.end() ? 0 : before->second;
  add_bits(*g, guid, req.join_state);
  if (guid == requester) g->self_joined.insert(guid);
  out.changed = !out.events.empty() || g->members[guid] != had;
  out.answer = SaAnswer::one(g->record(req.port_gid, g->members[guid]));
  return out;
}

McastResult McastDb::leave(const SaQuery& q, Guid requester, const McastContext& ctx) {
  McMemberRecord req;
  if (std::optional<McastResult> refused = read_membership(q, ctx, "a leave needs MGID, PortGID and JoinState", req))
    return std::move(*refused);
  const Guid guid = gid_guid(req.port_gid);
  const auto it = groups_.find(req.mgid);
  if (it == groups_.end()) return refusal(status::kReqInvalid, "no such group");
  // A membership the port made for itself is the port's to end (OpenSM refuses it too: ERR 1B25).
  if (guid != requester && !q.trusted && it->second.self_joined.contains(guid))
    return refusal(status::kReqInvalid, "the port joined for itself: no other port may end its membership");
  if (guid != requester) {
    const std::optional<McastPort> from = requester ? ctx.port(requester) : std::nullopt;
    const std::optional<McastPort> port = ctx.port(guid);
    // A port gone from the subnet can still be taken out of its groups by a port of its partitions'.
    if (!from || (port && !visible_to(from->pkeys, port->pkeys, false)) ||
        (!port && !holds_pkey(from->pkeys, it->second.pkey)))
      return refusal(status::kReqInvalid, "proxy leave for a port that shares no P_Key with the requester");
  }
  const auto m = it->second.members.find(guid);
  if (m == it->second.members.end()) return refusal(status::kReqInvalid, "the port is not a member");
  const std::uint8_t bits = static_cast<std::uint8_t>(req.join_state & 0xF);
  if ((bits & m->second) == 0) return refusal(status::kReqInvalid, "the port holds none of the JoinState bits to clear");
  // Every bit to clear must be held (OpenSM's validate_delete; osmtest o15.0.1.14 leaves 0x6 from 0x3).
  if ((bits & ~m->second) != 0) return refusal(status::kReqInvalid, "the port does not hold every JoinState bit to clear");
  McastResult out;
  out.answer = SaAnswer::one(it->second.record(req.port_gid, static_cast<std::uint8_t>(m->second & ~bits)));
  const Gid mgid = it->first;
  if (remove_bits(it, guid, bits)) out.events.push_back({false, mgid});
  out.changed = true;
  return out;
}

SaAnswer McastDb::find(const SaQuery& q, Guid requester, const std::vector<std::uint16_t>& requester_pkeys,
                       std::uint64_t subnet_prefix, std::uint32_t max_records) const {
  // JoinState matches when any bit is shared (as OpenSM); the other fields by equality.
  SaQuery plain = q;
  plain.header.comp_mask &= ~mask_bit(McMemberRecordField::kJoinState);
  if (q.mask() & mask_bit(McMemberRecordField::kPortGid)) {
    McMemberRecord t = McMemberRecord::decode(q.rec());
    if (gid_prefix(t.port_gid) == kLinkLocalPrefix) {
      t.port_gid = make_gid(subnet_prefix, gid_guid(t.port_gid));
      std::copy(t.port_gid.begin(), t.port_gid.end(), plain.record.begin() + 16);
    }
  }
  const bool js_masked = (q.mask() & mask_bit(McMemberRecordField::kJoinState)) != 0;
  const std::uint8_t js_want = static_cast<std::uint8_t>(q.rec()[48] & 0xF);
  RecordCollector match(kMcMemberRecordLayout, plain, max_records);
  auto offer = [&](const McMemberRecord& r) {
    if (js_masked && !(r.join_state & js_want)) return false;
    r.encode(match.slot());
    return match.offer() && match.done();
  };
  for (const auto& [mgid, g] : groups_) {
    if (!q.trusted) {
      // An untrusted requester sees only the groups of its own partitions, one record each: its own
      // membership when it is a member, else the group with PortGID 0 (OpenSM shows no other port's GID).
      if (!holds_pkey(requester_pkeys, g.pkey)) continue;
      auto own = g.members.find(requester);
      const bool stop = own != g.members.end() && requester != 0
                            ? offer(g.record(make_gid(subnet_prefix, requester), own->second))
                            : offer(g.record(Gid{}, 0));
      if (stop) break;
      continue;
    }
    if (g.members.empty()) {
      if (offer(g.record(Gid{}, 0))) break;
      continue;
    }
    bool stop = false;
    for (const auto& [guid, js] : g.members) {
      if ((stop = offer(g.record(make_gid(subnet_prefix, guid), js)))) break;
    }
    if (stop) break;
  }
  return std::move(match).finish();
}

std::vector<McastEvent> McastDb::drop_absent(const std::function<bool(Guid)>& present, bool* changed) {
  std::vector<McastEvent> events;
  bool moved = false;
  for (auto it = groups_.begin(); it != groups_.end();) {
    std::vector<Guid> gone;
    for (const auto& [guid, js] : it->second.members) {
      if (!present(guid)) gone.push_back(guid);
    }
    auto next = std::next(it);
    const Gid mgid = it->first;
    for (Guid g : gone) {
      moved = true;
      if (remove_bits(it, g, 0xF)) {
        events.push_back({false, mgid});
        break;
      }
    }
    it = next;
  }
  if (changed) *changed = moved;
  return events;
}

std::size_t McastDb::member_count() const {
  std::size_t n = 0;
  for (const auto& [mgid, g] : groups_) n += g.members.size();
  return n;
}

std::vector<McastGroupMembers> McastDb::snapshot() const {
  std::vector<McastGroupMembers> out;
  out.reserve(groups_.size());
  for (const auto& [mgid, g] : groups_) {
    McastGroupMembers m;
    m.mlid = g.mlid;
    m.mgid = mgid;
    m.members.assign(g.members.begin(), g.members.end());
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace smd::sa
