// The rules of a multicast group's values (IBA 15.2.5.17 and table 222; OpenSM's validate_other_comp_fields
// and get_new_mlid), shared by the join, the create and the load of the groups file.
#include "smd/sa/mcast_rules.h"

#include <algorithm>

#include "smd/sa/ipv6_snm.h"
#include "smd/sa/rate.h"

namespace smd::sa::mcast {

using namespace mad::sa;

namespace {

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

}  // namespace

McastResult refusal(std::uint16_t status, std::string why) {
  McastResult r;
  r.answer = SaAnswer::error(status);
  r.why = std::move(why);
  return r;
}

bool is_zero_gid(const Gid& g) {
  return std::all_of(g.begin(), g.end(), [](std::uint8_t b) { return b == 0; });
}

std::uint16_t mgid_signature(const Gid& mgid) { return static_cast<std::uint16_t>(mgid[2] << 8 | mgid[3]); }

/// The fields of `req` selected by `mask` that group `g` does not satisfy, or "" (OpenSM's
/// validate_other_comp_fields).
std::string mismatch(const McastGroup& g, const McMemberRecord& req, std::uint64_t mask) {
  using enum McMemberRecordField;
  if ((mask & mask_bit(kQKey)) && req.q_key != g.q_key) return "Q_Key differs from the group's";
  if ((mask & mask_bit(kMlid)) && req.mlid != g.mlid) return "MLID differs from the group's";
  if ((mask & mask_bit(kMtu)) &&
      !selector_ok(selector_of(mask, mask_bit(kMtuSelector), req.mtu_selector), g.mtu, req.mtu, ident))
    return "the group's MTU does not satisfy the request";
  if ((mask & mask_bit(kTClass)) && req.tclass != g.tclass) return "TClass differs from the group's";
  if ((mask & mask_bit(kPKey)) && (req.pkey & 0x7fff) != (g.pkey & 0x7fff)) return "P_Key differs from the group's";
  if ((mask & mask_bit(kRate)) &&
      !selector_ok(selector_of(mask, mask_bit(kRateSelector), req.rate_selector), g.rate, req.rate, rate_key))
    return "the group's rate does not satisfy the request";
  if ((mask & mask_bit(kLife)) && !selector_ok(selector_of(mask, mask_bit(kLifeSelector), req.life_selector),
                                               g.packet_life, req.packet_life, ident))
    return "the group's PacketLifeTime does not satisfy the request";
  if ((mask & mask_bit(kSl)) && req.sl != g.sl) return "SL differs from the group's";
  if ((mask & mask_bit(kFlowLabel)) && req.flow_label != g.flow_label) return "FlowLabel differs from the group's";
  if ((mask & mask_bit(kHopLimit)) && req.hop_limit != g.hop_limit) return "HopLimit differs from the group's";
  if ((mask & mask_bit(kScope)) && req.scope != g.scope) return "Scope differs from the group's";
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
  if (!(mask & mask_bit(McMemberRecordField::kMtu))) return port_mtu;
  const int want = req.mtu;
  switch (selector_of(mask, mask_bit(McMemberRecordField::kMtuSelector), req.mtu_selector)) {
    case selector::kGreaterThan: return port_mtu > want ? port_mtu : 0;
    case selector::kLessThan: return port_mtu < want ? port_mtu : want - 1;
    case selector::kExactly: return want <= port_mtu ? want : 0;
    default: return port_mtu;
  }
}

/// Rate code of a new group, by the same rule as pick_mtu over the rates' Gb/s (code 5, 5 Gb/s, is slower
/// than code 3, 10 Gb/s). 0 when nothing the port carries satisfies the request.
std::uint8_t pick_rate(std::uint64_t mask, const McMemberRecord& req, std::uint8_t port_rate) {
  if (!(mask & mask_bit(McMemberRecordField::kRate))) return port_rate;
  const unsigned have = rate_half_gbps(port_rate);
  const unsigned want = rate_half_gbps(req.rate);
  if (want == 0) return 0;  // a reserved code: nothing satisfies it
  switch (selector_of(mask, mask_bit(McMemberRecordField::kRateSelector), req.rate_selector)) {
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

}  // namespace smd::sa::mcast
