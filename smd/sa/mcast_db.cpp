// McastDb: join, create, leave, listing, the policy's pre-created groups, and the groups file.
#include "smd/sa/mcast_db.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "smd/sa/ipv6_snm.h"
#include "smd/sa/rate.h"

namespace smd::sa {

using namespace mad::sa;

namespace {

constexpr std::uint64_t kLinkLocalPrefix = 0xFE80000000000000ull;
constexpr std::uint64_t kJoinNeeds = mcm_mask::kMgid | mcm_mask::kPortGid | mcm_mask::kJoinState;
constexpr std::uint64_t kCreateNeeds =
    kJoinNeeds | mcm_mask::kQKey | mcm_mask::kTClass | mcm_mask::kPKey | mcm_mask::kFlowLabel | mcm_mask::kSl;
constexpr std::uint8_t kFullBits = join_state::kFull | join_state::kSendOnlyFull;
constexpr std::uint8_t kScopeLinkLocal = 2;

McastResult fail(std::uint16_t status, std::string why) {
  McastResult r;
  r.answer = SaAnswer::error(status);
  r.why = std::move(why);
  return r;
}

SaAnswer one_record(const McMemberRecord& rec) {
  SaAnswer a;
  a.record_size = McMemberRecord::kSize;
  a.records.resize(McMemberRecord::kSize);
  rec.encode(a.records);
  a.count = 1;
  return a;
}

bool is_zero(const Gid& g) {
  return std::all_of(g.begin(), g.end(), [](std::uint8_t b) { return b == 0; });
}

std::uint16_t signature(const Gid& mgid) { return static_cast<std::uint16_t>(mgid[2] << 8 | mgid[3]); }

std::optional<Gid> gid_from_hex(const std::string& s) {
  if (s.size() != 32) return std::nullopt;
  Gid g{};
  for (std::size_t i = 0; i < 16; ++i) {
    unsigned v = 0;
    for (std::size_t k = 0; k < 2; ++k) {
      const char c = s[2 * i + k];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return std::nullopt;
      v = v << 4 | static_cast<unsigned>(d);
    }
    g[i] = static_cast<std::uint8_t>(v);
  }
  return g;
}

/// Whether `have` satisfies `want` under selector `sel` (IBA 15.2.5.16 table 222), values compared by `key`.
template <class Key>
bool selector_ok(std::uint8_t sel, unsigned have, unsigned want, Key key) {
  switch (sel) {
    case selector::kGreaterThan: return key(have) > key(want);
    case selector::kLessThan: return key(have) < key(want);
    case selector::kExactly: return have == want;
    default: return true;  // largest available
  }
}

unsigned ident(unsigned v) { return v; }
unsigned rate_key(unsigned code) { return rate_half_gbps(static_cast<std::uint8_t>(code)); }

/// The selector a masked value comes with: the request's when its selector bit is in the mask, else exactly.
std::uint8_t selector_of(std::uint64_t mask, std::uint64_t sel_bit, std::uint8_t sel) {
  return (mask & sel_bit) ? sel : selector::kExactly;
}

/// The fields of `req` selected by `mask` that group `g` does not satisfy, or "" (OpenSM's
/// validate_other_comp_fields).
std::string mismatch(const McastGroup& g, const McMemberRecord& req, std::uint64_t mask) {
  using namespace mcm_mask;
  if ((mask & kQKey) && req.q_key != g.q_key) return "Q_Key differs from the group's";
  if ((mask & kMlid) && req.mlid != g.mlid) return "MLID differs from the group's";
  if ((mask & kMtu) && !selector_ok(selector_of(mask, kMtuSelector, req.mtu_selector), g.mtu, req.mtu, ident))
    return "the group's MTU does not satisfy the request";
  if ((mask & kTClass) && req.tclass != g.tclass) return "TClass differs from the group's";
  if ((mask & kPKey) && (req.pkey & 0x7fff) != (g.pkey & 0x7fff)) return "P_Key differs from the group's";
  if ((mask & kRate) && !selector_ok(selector_of(mask, kRateSelector, req.rate_selector), g.rate, req.rate, rate_key))
    return "the group's rate does not satisfy the request";
  if ((mask & kLife) &&
      !selector_ok(selector_of(mask, kLifeSelector, req.life_selector), g.packet_life, req.packet_life, ident))
    return "the group's PacketLifeTime does not satisfy the request";
  if ((mask & kSl) && req.sl != g.sl) return "SL differs from the group's";
  if ((mask & kFlowLabel) && req.flow_label != g.flow_label) return "FlowLabel differs from the group's";
  if ((mask & kHopLimit) && req.hop_limit != g.hop_limit) return "HopLimit differs from the group's";
  if ((mask & kScope) && req.scope != g.scope) return "Scope differs from the group's";
  return "";
}

/// PacketLifeTime of a new group: the request's value moved by its selector, `deflt` when not given.
int pick_step(std::uint64_t mask, std::uint64_t value_bit, std::uint64_t sel_bit, std::uint8_t sel, int value,
              int deflt) {
  if (!(mask & value_bit)) return deflt;
  switch (selector_of(mask, sel_bit, sel)) {
    case selector::kGreaterThan: return value + 1;
    case selector::kLessThan: return value - 1;
    case selector::kExactly: return value;
    default: return deflt;
  }
}

/// MTU (code 1..5) of a new group as OpenSM chooses it: the joining port's `port_mtu` when the request gives
/// none, or when the port's satisfies the selector ("largest available" included); else, for "less than",
/// one step below the requested; "exactly" the requested. 0 when nothing the port carries satisfies it.
int pick_mtu(std::uint64_t mask, const McMemberRecord& req, int port_mtu) {
  if (!(mask & mcm_mask::kMtu)) return port_mtu;
  const int want = req.mtu;
  switch (selector_of(mask, mcm_mask::kMtuSelector, req.mtu_selector)) {
    case selector::kGreaterThan: return port_mtu > want ? port_mtu : 0;
    case selector::kLessThan: return port_mtu < want ? port_mtu : want - 1;
    case selector::kExactly: return want <= port_mtu ? want : 0;
    default: return port_mtu;
  }
}

/// Rate code of a new group, by the same rule as pick_mtu over the rates' Gb/s (code 5, 5 Gb/s, is slower
/// than code 3, 10 Gb/s). 0 when nothing the port carries satisfies the request.
std::uint8_t pick_rate(std::uint64_t mask, const McMemberRecord& req, std::uint8_t port_rate) {
  if (!(mask & mcm_mask::kRate)) return port_rate;
  const unsigned have = rate_half_gbps(port_rate);
  const unsigned want = rate_half_gbps(req.rate);
  if (want == 0) return 0;  // a reserved code: nothing satisfies it
  switch (selector_of(mask, mcm_mask::kRateSelector, req.rate_selector)) {
    case selector::kGreaterThan: return have > want ? port_rate : 0;
    case selector::kLessThan: return have < want ? port_rate : next_slower_rate(req.rate);
    case selector::kExactly: return want <= have ? req.rate : 0;
    default: return port_rate;
  }
}

/// Whether groups `a` and `b` may be carried by one MLID: IPv6 SNM groups of one family whose properties
/// agree (what the switches and the receivers see of a packet must not depend on which MGID it was sent to).
bool may_share_mlid(const McastGroup& a, const McastGroup& b) {
  return is_ipv6_snm_mgid(a.mgid) && is_ipv6_snm_mgid(b.mgid) && same_snm_family(a.mgid, b.mgid) &&
         a.q_key == b.q_key && a.mtu == b.mtu && a.rate == b.rate && a.sl == b.sl && a.flow_label == b.flow_label &&
         a.tclass == b.tclass && a.pkey == b.pkey && a.hop_limit == b.hop_limit;
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

bool holds_pkey(const std::vector<std::uint16_t>& pkeys, std::uint16_t pkey) {
  return std::any_of(pkeys.begin(), pkeys.end(), [&](std::uint16_t k) { return (k & 0x7fff) == (pkey & 0x7fff); });
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

std::optional<Lid> McastDb::free_mlid(Lid wanted, Lid top) const {
  top = std::min(top, kMlidLast);
  if (wanted >= kMlidFirst && wanted <= top && !mlids_.count(wanted)) return wanted;
  Lid next = kMlidFirst;
  for (const auto& [mlid, users] : mlids_) {  // ordered: the first gap is the lowest free MLID
    if (mlid > next) break;
    if (mlid == next) ++next;
  }
  if (next > top) return std::nullopt;
  return next;
}

std::optional<Lid> McastDb::shared_snm_mlid(const McastGroup& g, Lid top) const {
  // One family's MGIDs differ only in their last 3 bytes: they sit together in the ordered map.
  for (auto it = groups_.lower_bound(snm_family_first(g.mgid));
       it != groups_.end() && same_snm_family(it->first, g.mgid); ++it) {
    if (may_share_mlid(it->second, g) && it->second.mlid <= top) return it->second.mlid;
  }
  return std::nullopt;
}

void McastDb::release_mlid(Lid mlid) {
  const auto it = mlids_.find(mlid);
  if (it == mlids_.end()) return;
  if (--it->second == 0) mlids_.erase(it);
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
  release_mlid(g.mlid);
  groups_.erase(it);
  return true;
}

McastGroup* McastDb::create(const McMemberRecord& req, std::uint64_t mask, const McastPort& port,
                            const McastContext& ctx, McastResult& out, const std::string& no_new_mlid) {
  auto refuse = [&](std::uint16_t st, std::string why) {
    out = fail(st, std::move(why));
    return nullptr;
  };
  if (!(req.join_state & kFullBits))
    return refuse(status::kReqInvalid, "creating a group needs JoinState FullMember or SendOnlyFullMember");
  if ((mask & kCreateNeeds) != kCreateNeeds)
    return refuse(status::kInsufficientComponents, "creating a group needs Q_Key, TClass, P_Key, FlowLabel and SL");
  if ((req.pkey & 0x7fff) == 0) return refuse(status::kReqInvalid, "P_Key 0 is invalid");
  if (!holds_pkey(port.pkeys, req.pkey)) return refuse(status::kReqInvalid, "the port does not hold the P_Key");

  McastGroup g;
  if (is_zero(req.mgid)) {
    const std::uint8_t scope = (mask & mcm_mask::kScope) ? req.scope : kScopeLinkLocal;
    Gid m{};
    m[0] = 0xff;
    m[1] = static_cast<std::uint8_t>(0x10 | (scope & 0xF));
    m[2] = 0xa0;
    m[3] = 0x1b;
    for (int i = 0; i < 8; ++i)
      m[4 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(ctx.subnet_prefix >> (56 - 8 * i));
    do {
      const std::uint32_t n = next_mgid_++;
      for (int i = 0; i < 4; ++i) m[12 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (24 - 8 * i));
    } while (groups_.count(m));
    g.mgid = m;
  } else {
    g.mgid = req.mgid;
    if (req.mgid[0] != 0xff) return refuse(status::kReqInvalid, "MGID does not start with 0xff");
    const std::uint16_t sig = signature(req.mgid);
    // The scope nibble is not policed: scopes 0 and 15 are reserved (RFC 4291 2.7), but OpenSM creates
    // such groups and osmtest -f m requires it (o15.0.1.6 creates ff1f:a01c:...). Only the switches'
    // MFTs carry the group; no SM decision depends on its scope.
    if (sig != 0x401B && sig != 0x601B) {
      if (req.mgid[1] & 0xE0) return refuse(status::kReqInvalid, "MGID flag bits 7:5 are not zero");
      if (sig == 0xA01B && (req.mgid[1] & 0xF) == kScopeLinkLocal)
        return refuse(status::kReqInvalid, "MGID with the SA signature 0xa01b given with link-local scope");
    } else {
      // An IPoIB MGID carries its partition's P_Key (RFC 4391 4): a group whose record says another would
      // let a port outside the partition take that partition's broadcast group before its members come.
      // Bits 0 name no partition (the policy's placeholder, filled in there): nothing to take.
      const auto bits = static_cast<std::uint16_t>(req.mgid[4] << 8 | req.mgid[5]);
      if (bits != 0 && (bits & 0x7fff) != (req.pkey & 0x7fff))
        return refuse(status::kReqInvalid, "IPoIB MGID P_Key bits differ from the record's P_Key");
    }
  }
  g.scope = g.mgid[1] & 0xF;

  const int mtu = pick_mtu(mask, req, port.mtu);
  if (mtu < 1 || mtu > 5 || mtu > port.mtu)
    return refuse(status::kReqInvalid, "no MTU the port carries satisfies the request");
  g.mtu = static_cast<std::uint8_t>(mtu);

  const std::uint8_t rate = pick_rate(mask, req, port.rate);
  if (rate_half_gbps(rate) == 0 || rate_half_gbps(rate) > rate_half_gbps(port.rate))
    return refuse(status::kReqInvalid, "no rate the port carries satisfies the request");
  g.rate = rate;

  const int life =
      pick_step(mask, mcm_mask::kLife, mcm_mask::kLifeSelector, req.life_selector, req.packet_life, ctx.packet_life);
  if (life < 0 || life > 63) return refuse(status::kReqInvalid, "PacketLifeTime out of range");
  g.packet_life = static_cast<std::uint8_t>(life);

  g.q_key = req.q_key;
  g.tclass = req.tclass;
  g.pkey = static_cast<std::uint16_t>(req.pkey | kPKeyFullBit);
  g.sl = req.sl;
  g.flow_label = req.flow_label;
  g.hop_limit = (mask & mcm_mask::kHopLimit) ? req.hop_limit : (g.scope == kScopeLinkLocal ? 0 : 0xFF);
  // As OpenSM's get_new_mlid: a free requested MLID first, then the SNM family's, then the lowest free.
  const Lid requested = (mask & mcm_mask::kMlid) ? req.mlid : 0;
  std::optional<Lid> mlid;
  if (requested >= kMlidFirst && requested <= std::min(ctx.mlid_top, kMlidLast) && !mlids_.count(requested))
    mlid = requested;
  if (!mlid && ctx.consolidate_ipv6_snm && is_ipv6_snm_mgid(g.mgid)) mlid = shared_snm_mlid(g, ctx.mlid_top);
  if ((!mlid || !mlids_.count(*mlid)) && !no_new_mlid.empty()) return refuse(status::kNoResources, no_new_mlid);
  if (!mlid) mlid = free_mlid(0, ctx.mlid_top);
  if (!mlid) return refuse(status::kNoResources, "no free MLID");
  g.mlid = *mlid;
  hold_mlid(g.mlid);
  out.events.push_back({true, g.mgid});
  auto [it, inserted] = groups_.emplace(g.mgid, std::move(g));
  return &it->second;
}

McastResult McastDb::join(const SaQuery& q, Guid requester, const McastContext& ctx) {
  const std::uint64_t mask = q.mask();
  if ((mask & kJoinNeeds) != kJoinNeeds)
    return fail(status::kInsufficientComponents, "a join needs MGID, PortGID and JoinState");
  McMemberRecord req = McMemberRecord::decode(q.rec());
  if (gid_prefix(req.port_gid) == kLinkLocalPrefix) req.port_gid = make_gid(ctx.subnet_prefix, gid_guid(req.port_gid));
  if (gid_prefix(req.port_gid) != ctx.subnet_prefix) return fail(status::kReqInvalid, "PortGID of another subnet");
  const Guid guid = gid_guid(req.port_gid);
  const std::optional<McastPort> port = ctx.port(guid);
  if (!port) return fail(status::kReqInvalid, "unknown port");
  req.join_state &= 0xF;
  if (req.join_state == 0) return fail(status::kReqInvalid, "JoinState 0");
  if (guid != requester) {
    const std::optional<McastPort> from = requester ? ctx.port(requester) : std::nullopt;
    if (!from || !pkeys_share(from->pkeys, port->pkeys))
      return fail(status::kReqInvalid, "proxy join for a port that shares no P_Key with the requester");
  }

  McastResult out;
  McastGroup* g = nullptr;
  const auto it = is_zero(req.mgid) ? groups_.end() : groups_.find(req.mgid);
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
      return fail(status::kReqInvalid, "the port joined for itself: no other port may change its membership");
    if (!holds_pkey(port->pkeys, g->pkey)) return fail(status::kReqInvalid, "the port does not hold the group's P_Key");
    if (std::string why = mismatch(*g, req, mask); !why.empty()) return fail(status::kReqInvalid, why);
    // A member the group's packets cannot reach at its MTU or rate would get none of them (OpenSM's
    // validate_port_caps refuses such a join too).
    if (g->mtu > port->mtu) return fail(status::kReqInvalid, "the group's MTU is beyond the port's MTUCap");
    if (rate_half_gbps(g->rate) > rate_half_gbps(port->rate))
      return fail(status::kReqInvalid, "the group's rate is beyond the port's");
  }
  const auto before = g->members.find(guid);
  const std::uint8_t had = before == g->members.end() ? 0 : before->second;
  add_bits(*g, guid, req.join_state);
  if (guid == requester) g->self_joined.insert(guid);
  out.changed = !out.events.empty() || g->members[guid] != had;
  out.answer = one_record(g->record(req.port_gid, g->members[guid]));
  return out;
}

McastResult McastDb::leave(const SaQuery& q, Guid requester, const McastContext& ctx) {
  const std::uint64_t mask = q.mask();
  if ((mask & kJoinNeeds) != kJoinNeeds)
    return fail(status::kInsufficientComponents, "a leave needs MGID, PortGID and JoinState");
  McMemberRecord req = McMemberRecord::decode(q.rec());
  if (gid_prefix(req.port_gid) == kLinkLocalPrefix) req.port_gid = make_gid(ctx.subnet_prefix, gid_guid(req.port_gid));
  if (gid_prefix(req.port_gid) != ctx.subnet_prefix) return fail(status::kReqInvalid, "PortGID of another subnet");
  const Guid guid = gid_guid(req.port_gid);
  const auto it = groups_.find(req.mgid);
  if (it == groups_.end()) return fail(status::kReqInvalid, "no such group");
  // A membership the port made for itself is the port's to end (OpenSM refuses it too: ERR 1B25).
  if (guid != requester && !q.trusted && it->second.self_joined.contains(guid))
    return fail(status::kReqInvalid, "the port joined for itself: no other port may end its membership");
  if (guid != requester) {
    const std::optional<McastPort> from = requester ? ctx.port(requester) : std::nullopt;
    const std::optional<McastPort> port = ctx.port(guid);
    // A port gone from the subnet can still be taken out of its groups by a port of its partitions'.
    if (!from || (port && !pkeys_share(from->pkeys, port->pkeys)) ||
        (!port && !holds_pkey(from->pkeys, it->second.pkey)))
      return fail(status::kReqInvalid, "proxy leave for a port that shares no P_Key with the requester");
  }
  const auto m = it->second.members.find(guid);
  if (m == it->second.members.end()) return fail(status::kReqInvalid, "the port is not a member");
  const std::uint8_t bits = static_cast<std::uint8_t>(req.join_state & 0xF);
  if ((bits & m->second) == 0) return fail(status::kReqInvalid, "the port holds none of the JoinState bits to clear");
  // Every bit to clear must be held (OpenSM's validate_delete; osmtest o15.0.1.14 leaves 0x6 from 0x3).
  if ((bits & ~m->second) != 0) return fail(status::kReqInvalid, "the port does not hold every JoinState bit to clear");
  McastResult out;
  out.answer = one_record(it->second.record(req.port_gid, static_cast<std::uint8_t>(m->second & ~bits)));
  const Gid mgid = it->first;
  if (remove_bits(it, guid, bits)) out.events.push_back({false, mgid});
  out.changed = true;
  return out;
}

SaAnswer McastDb::find(const SaQuery& q, Guid requester, const std::vector<std::uint16_t>& requester_pkeys,
                       std::uint64_t subnet_prefix, std::uint32_t max_records) const {
  // JoinState matches when any bit is shared (as OpenSM); the other fields by equality.
  SaQuery plain = q;
  plain.header.comp_mask &= ~mcm_mask::kJoinState;
  if (q.mask() & mcm_mask::kPortGid) {
    McMemberRecord t = McMemberRecord::decode(q.rec());
    if (gid_prefix(t.port_gid) == kLinkLocalPrefix) {
      t.port_gid = make_gid(subnet_prefix, gid_guid(t.port_gid));
      std::copy(t.port_gid.begin(), t.port_gid.end(), plain.record.begin() + 16);
    }
  }
  const bool js_masked = (q.mask() & mcm_mask::kJoinState) != 0;
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

std::vector<McastEvent> McastDb::apply_policy(const PartitionsSpec& spec, const McastContext& ctx, bool* changed,
                                              std::vector<mad::sa::Gid>* no_mlid,
                                              std::vector<mad::sa::Gid>* values_kept) {
  bool moved = false;
  struct Want {
    Gid mgid;
    std::uint16_t pkey;
    McastGroupSpec props;
  };
  // The values a policy group takes from its spec (scope, hop limit and packet life are set once, at creation).
  const auto set_policy_values = [](McastGroup& g, const Want& w) {
    g.q_key = w.props.q_key;
    g.mtu = w.props.mtu;
    g.rate = w.props.rate;
    g.sl = w.props.sl;
    g.tclass = w.props.tclass;
    g.flow_label = w.props.flow_label;
    g.pkey = w.pkey;
  };
  std::vector<Want> wanted;
  for (const PartitionSpec& p : spec.partitions) {
    const std::uint16_t pkey = static_cast<std::uint16_t>(p.pkey | kPKeyFullBit);
    if (p.ipoib.enabled) {
      for (std::uint8_t scope : p.ipoib.scopes) {
        McastGroupSpec s;
        s.mgid = ipoib_broadcast_mgid(p.pkey, scope);
        s.mtu = p.ipoib.mtu;
        s.rate = p.ipoib.rate;
        s.sl = p.ipoib.sl;
        s.scope = scope;
        s.q_key = p.ipoib.q_key;
        s.tclass = p.ipoib.tclass;
        s.flow_label = p.ipoib.flow_label;
        wanted.push_back({s.mgid, pkey, s});
      }
    }
    for (McastGroupSpec s : p.groups) {
      const std::uint16_t sig = signature(s.mgid);
      // An IPoIB MGID with P_Key 0 belongs to its partition (OpenSM fills it in the same way).
      if ((sig == 0x401B || sig == 0x601B) && s.mgid[4] == 0 && s.mgid[5] == 0) {
        s.mgid[4] = static_cast<std::uint8_t>(pkey >> 8);
        s.mgid[5] = static_cast<std::uint8_t>(pkey);
      }
      if (s.mgid[0] == 0xff) s.scope = s.mgid[1] & 0xF;
      wanted.push_back({s.mgid, pkey, s});
    }
  }
  std::vector<McastEvent> events;
  for (auto it = groups_.begin(); it != groups_.end();) {
    const bool kept = std::any_of(wanted.begin(), wanted.end(), [&](const Want& w) { return w.mgid == it->first; });
    auto next = std::next(it);
    if (!kept && it->second.well_known) {
      it->second.well_known = false;
      moved = true;
      const Gid mgid = it->first;
      if (it->second.bit_count[0] == 0 && it->second.bit_count[3] == 0) {
        release_mlid(it->second.mlid);
        groups_.erase(it);
        events.push_back({false, mgid});
      }
    }
    it = next;
  }
  for (const Want& w : wanted) {
    auto it = groups_.find(w.mgid);
    if (it != groups_.end()) {
      McastGroup& g = it->second;
      moved = moved || !g.well_known;
      g.well_known = true;
      const bool differs = g.q_key != w.props.q_key || g.mtu != w.props.mtu || g.rate != w.props.rate ||
                           g.sl != w.props.sl || g.tclass != w.props.tclass || g.flow_label != w.props.flow_label ||
                           g.pkey != w.pkey;
      if (!differs) continue;
      if (!g.members.empty()) {  // members joined with the values it has: they stay until it is empty
        if (values_kept != nullptr) values_kept->push_back(w.mgid);
        continue;
      }
      set_policy_values(g, w);
      moved = true;
      continue;
    }
    const std::optional<Lid> mlid = free_mlid(0, ctx.mlid_top);
    if (!mlid) {
      if (no_mlid != nullptr) no_mlid->push_back(w.mgid);
      continue;
    }
    McastGroup g;
    g.mgid = w.mgid;
    g.mlid = *mlid;
    set_policy_values(g, w);
    g.scope = w.props.scope & 0xF;
    g.hop_limit = g.scope == kScopeLinkLocal ? 0 : 0xFF;
    g.packet_life = ctx.packet_life;
    g.well_known = true;
    hold_mlid(g.mlid);
    groups_.emplace(g.mgid, std::move(g));
    events.push_back({true, w.mgid});
  }
  if (changed) *changed = moved || !events.empty();
  return events;
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

Status McastDb::load_json(const std::string& text) {
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return make_error(ErrorCode::kInvalidInput, "not a JSON object");
  if (doc.value("version", 0) != 1) return make_error(ErrorCode::kInvalidInput, "\"version\" is not 1");
  const auto list = doc.find("groups");
  if (list == doc.end() || !list->is_array()) return make_error(ErrorCode::kInvalidInput, "no \"groups\" array");
  const auto counter = doc.find("next_mgid");
  if (counter == doc.end() || !counter->is_number_unsigned() || counter->get<std::uint64_t>() > 0xFFFFFFFFull)
    return make_error(ErrorCode::kInvalidInput, "\"next_mgid\" is not a 32-bit count");
  std::map<Gid, McastGroup> groups;
  std::map<Lid, std::uint32_t> mlids;
  std::map<Lid, Gid> first_on;  // the first group read on each MLID
  for (std::size_t i = 0; i < list->size(); ++i) {
    const nlohmann::json& e = (*list)[i];
    const std::string where = "groups[" + std::to_string(i) + "]";
    auto num = [&](const char* key, std::uint64_t max, std::uint64_t& v) {
      const auto f = e.find(key);
      if (f == e.end() || !f->is_number_unsigned() || f->get<std::uint64_t>() > max) return false;
      v = f->get<std::uint64_t>();
      return true;
    };
    if (!e.is_object() || !e.contains("mgid") || !e["mgid"].is_string())
      return make_error(ErrorCode::kInvalidInput, where + ": needs \"mgid\" (32 hex digits)");
    const std::optional<Gid> mgid = gid_from_hex(e["mgid"].get<std::string>());
    if (!mgid) return make_error(ErrorCode::kInvalidInput, where + ": \"mgid\" is not 32 hex digits");
    McastGroup g;
    g.mgid = *mgid;
    std::uint64_t v[11] = {};
    const char* keys[11] = {"mlid",   "q_key",     "mtu",   "rate", "sl",         "flow_label",
                            "tclass", "hop_limit", "scope", "pkey", "packet_life"};
    const std::uint64_t max[11] = {kMlidLast, 0xFFFFFFFFull, 63, 63, 15, 0xFFFFF, 255, 255, 15, 0xFFFF, 63};
    for (int k = 0; k < 11; ++k) {
      if (!num(keys[k], max[k], v[k]))
        return make_error(ErrorCode::kInvalidInput, where + ": \"" + keys[k] + "\" missing or out of range");
    }
    g.mlid = static_cast<Lid>(v[0]);
    if (g.mlid < kMlidFirst) return make_error(ErrorCode::kInvalidInput, where + ": \"mlid\" below 0xc000");
    g.q_key = static_cast<std::uint32_t>(v[1]);
    g.mtu = static_cast<std::uint8_t>(v[2]);
    g.rate = static_cast<std::uint8_t>(v[3]);
    g.sl = static_cast<std::uint8_t>(v[4]);
    g.flow_label = static_cast<std::uint32_t>(v[5]);
    g.tclass = static_cast<std::uint8_t>(v[6]);
    g.hop_limit = static_cast<std::uint8_t>(v[7]);
    g.scope = static_cast<std::uint8_t>(v[8]);
    g.pkey = static_cast<std::uint16_t>(v[9]);
    g.packet_life = static_cast<std::uint8_t>(v[10]);
    // What a join answers must be IBA's own codes: a file edited by hand (or damaged) is refused as a whole.
    if (g.mtu < 1 || g.mtu > 5)
      return make_error(ErrorCode::kInvalidInput, where + ": \"mtu\" is not an MTU code 1..5");
    if (rate_half_gbps(g.rate) == 0)
      return make_error(ErrorCode::kInvalidInput, where + ": \"rate\" is not an IBA rate code (2..24)");
    if (!e.contains("well_known") || !e["well_known"].is_boolean())
      return make_error(ErrorCode::kInvalidInput, where + ": \"well_known\" is not true or false");
    g.well_known = e["well_known"].get<bool>();
    if (!e.contains("members") || !e["members"].is_array())
      return make_error(ErrorCode::kInvalidInput, where + ": no \"members\" array");
    for (const nlohmann::json& m : e["members"]) {
      if (!m.is_object() || !m.contains("guid") || !m["guid"].is_string() || !m.contains("join_state") ||
          !m["join_state"].is_number_unsigned() || m["join_state"].get<unsigned>() == 0 ||
          m["join_state"].get<unsigned>() > 15)
        return make_error(ErrorCode::kInvalidInput, where + ": a member needs \"guid\" and \"join_state\" 1..15");
      Guid guid = 0;
      try {
        std::size_t used = 0;
        const std::string s = m["guid"].get<std::string>();
        guid = std::stoull(s, &used, 16);
        if (used != s.size()) throw std::invalid_argument(s);
      } catch (const std::exception&) {
        return make_error(ErrorCode::kInvalidInput, where + ": a member's \"guid\" is not hexadecimal");
      }
      if (g.members.count(guid)) return make_error(ErrorCode::kInvalidInput, where + ": a member is listed twice");
      const auto js = static_cast<std::uint8_t>(m["join_state"].get<unsigned>());
      g.members[guid] = js;
      if (m.contains("self")) {
        if (!m["self"].is_boolean()) return make_error(ErrorCode::kInvalidInput, where + ": a member's \"self\" is not true or false");
        if (m["self"].get<bool>()) g.self_joined.insert(guid);
      }
      for (unsigned b = 0; b < 4; ++b) g.bit_count[b] += (js >> b) & 1u;
    }
    if (groups.count(g.mgid)) return make_error(ErrorCode::kInvalidInput, where + ": MGID listed twice");
    // Only IPv6 SNM groups of one family with equal properties share an MLID (what consolidation made).
    if (const auto other = first_on.find(g.mlid);
        other != first_on.end() && !may_share_mlid(groups.at(other->second), g))
      return make_error(ErrorCode::kInvalidInput, where + ": MLID already used by another group");
    first_on.emplace(g.mlid, g.mgid);
    ++mlids[g.mlid];
    groups.emplace(g.mgid, std::move(g));
  }
  groups_ = std::move(groups);
  mlids_ = std::move(mlids);
  next_mgid_ = static_cast<std::uint32_t>(counter->get<std::uint64_t>());
  return Ok{};
}

}  // namespace smd::sa
