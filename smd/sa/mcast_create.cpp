// McastDb::create: a join of an unknown MGID makes the group (IBA 15.2.5.17; OpenSM's rules, SA-NOTES §1.4),
// in the order OpenSM checks: the request may create at all, its MGID, the values every member will have to
// agree on, then the MLID.
#include <algorithm>

#include "smd/sa/ipv6_snm.h"
#include "smd/sa/mcast_db.h"
#include "smd/sa/mcast_rules.h"
#include "smd/sa/partition_rules.h"
#include "smd/sa/rate.h"

namespace smd::sa {

using namespace mad::sa;
using namespace mcast;

namespace {

/// Why `req` may not create a group at all (status and reason), nullopt when it may.
std::optional<McastResult> create_refused(const McMemberRecord& req, std::uint64_t mask, const McastPort& port) {
  if (!(req.join_state & kFullBits))
    return refusal(status::kReqInvalid, "creating a group needs JoinState FullMember or SendOnlyFullMember");
  if ((mask & kCreateNeeds) != kCreateNeeds)
    return refusal(status::kInsufficientComponents, "creating a group needs Q_Key, TClass, P_Key, FlowLabel and SL");
  if ((req.pkey & 0x7fff) == 0) return refusal(status::kReqInvalid, "P_Key 0 is invalid");
  if (!holds_pkey(port.pkeys, req.pkey)) return refusal(status::kReqInvalid, "the port does not hold the P_Key");
  return std::nullopt;
}

/// Why a given (non-zero) MGID may not name a new group, "" when it may.
std::string mgid_problem(const McMemberRecord& req) {
  if (req.mgid[0] != 0xff) return "MGID does not start with 0xff";
  const std::uint16_t sig = mgid_signature(req.mgid);
  // The scope nibble is not policed: scopes 0 and 15 are reserved (RFC 4291 2.7), but OpenSM creates
  // such groups and osmtest -f m requires it (o15.0.1.6 creates ff1f:a01c:...). Only the switches'
  // MFTs carry the group; no SM decision depends on its scope.
  if (sig != 0x401B && sig != 0x601B) {
    if (req.mgid[1] & 0xE0) return "MGID flag bits 7:5 are not zero";
    if (sig == 0xA01B && (req.mgid[1] & 0xF) == kScopeLinkLocal)
      return "MGID with the SA signature 0xa01b given with link-local scope";
    return "";
  }
  // An IPoIB MGID carries its partition's P_Key (RFC 4391 4): a group whose record says another would
  // let a port outside the partition take that partition's broadcast group before its members come.
  // Bits 0 name no partition (the policy's placeholder, filled in there): nothing to take.
  const auto bits = static_cast<std::uint16_t>(req.mgid[4] << 8 | req.mgid[5]);
  if (bits != 0 && (bits & 0x7fff) != (req.pkey & 0x7fff)) return "IPoIB MGID P_Key bits differ from the record's P_Key";
  return "";
}

/// The values of new group `g` from the request and the joiner's port: MTU, rate and PacketLifeTime by
/// their selectors (pick_mtu, pick_rate), the rest as given. Why none fits, "" when they do.
std::string fill_values(McastGroup& g, const McMemberRecord& req, std::uint64_t mask, const McastPort& port,
                        const McastContext& ctx) {
  const int mtu = pick_mtu(mask, req, port.mtu);
  if (mtu < 1 || mtu > 5 || mtu > port.mtu) return "no MTU the port carries satisfies the request";
  g.mtu = static_cast<std::uint8_t>(mtu);
  const std::uint8_t rate = pick_rate(mask, req, port.rate);
  if (rate_half_gbps(rate) == 0 || rate_half_gbps(rate) > rate_half_gbps(port.rate))
    return "no rate the port carries satisfies the request";
  g.rate = rate;
  const int life = pick_step(mask, mask_bit(McMemberRecordField::kLife), mask_bit(McMemberRecordField::kLifeSelector),
                             req.life_selector, req.packet_life, ctx.packet_life);
  if (life < 0 || life > 63) return "PacketLifeTime out of range";
  g.packet_life = static_cast<std::uint8_t>(life);
  g.q_key = req.q_key;
  g.tclass = req.tclass;
  g.pkey = static_cast<std::uint16_t>(req.pkey | kPKeyFullBit);
  g.sl = req.sl;
  g.flow_label = req.flow_label;
  g.hop_limit =
      (mask & mask_bit(McMemberRecordField::kHopLimit)) ? req.hop_limit : (g.scope == kScopeLinkLocal ? 0 : 0xFF);
  return "";
}

}  // namespace

Gid McastDb::generated_mgid(std::uint8_t scope, std::uint64_t subnet_prefix) {
  Gid m{};
  m[0] = 0xff;
  m[1] = static_cast<std::uint8_t>(0x10 | (scope & 0xF));
  m[2] = 0xa0;
  m[3] = 0x1b;
  for (int i = 0; i < 8; ++i) m[4 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(subnet_prefix >> (56 - 8 * i));
  do {
    const std::uint32_t n = next_mgid_++;
    for (int i = 0; i < 4; ++i) m[12 + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (24 - 8 * i));
  } while (groups_.count(m));
  return m;
}

std::optional<Lid> McastDb::choose_mlid(const McastGroup& g, Lid requested, const McastContext& ctx,
                                        const std::string& no_new_mlid, McastResult& out) const {
  std::optional<Lid> mlid;
  if (mlids_.available(requested, ctx.mlid_top)) mlid = requested;
  if (!mlid && ctx.consolidate_ipv6_snm && is_ipv6_snm_mgid(g.mgid)) mlid = shared_snm_mlid(g, ctx.mlid_top);
  if ((!mlid || !mlids_.in_use(*mlid)) && !no_new_mlid.empty()) {
    out = refusal(status::kNoResources, no_new_mlid);
    return std::nullopt;
  }
  if (!mlid) mlid = mlids_.lowest_free(ctx.mlid_top);
  if (!mlid) out = refusal(status::kNoResources, "no free MLID");
  return mlid;
}

McastGroup* McastDb::create(const McMemberRecord& req, std::uint64_t mask, const McastPort& port,
                            const McastContext& ctx, McastResult& out, const std::string& no_new_mlid) {
  if (std::optional<McastResult> refused = create_refused(req, mask, port)) {
    out = std::move(*refused);
    return nullptr;
  }
  McastGroup g;
  if (is_zero_gid(req.mgid)) {
    g.mgid =
        generated_mgid((mask & mask_bit(McMemberRecordField::kScope)) ? req.scope : kScopeLinkLocal, ctx.subnet_prefix);
  } else if (std::string why = mgid_problem(req); !why.empty()) {
    out = refusal(status::kReqInvalid, std::move(why));
    return nullptr;
  } else {
    g.mgid = req.mgid;
  }
  g.scope = g.mgid[1] & 0xF;
  if (std::string why = fill_values(g, req, mask, port, ctx); !why.empty()) {
    out = refusal(status::kReqInvalid, std::move(why));
    return nullptr;
  }
  const std::optional<Lid> mlid =
      choose_mlid(g, (mask & mask_bit(McMemberRecordField::kMlid)) ? req.mlid : 0, ctx, no_new_mlid, out);
  if (!mlid) return nullptr;
  g.mlid = *mlid;
  mlids_.hold(g.mlid);
  out.events.push_back({true, g.mgid});
  auto [it, inserted] = groups_.emplace(g.mgid, std::move(g));
  return &it->second;
}

}  // namespace smd::sa
