// McastDb::apply_policy: the partition policy's pre-created groups (IPoIB broadcast groups, `groups:`),
// re-applied on every policy load. Three steps: what the policy lists, the groups it no longer lists,
// each listed group brought to the policy's values (or created).
#include <algorithm>
#include <tuple>

#include "smd/sa/mcast_db.h"
#include "smd/sa/mcast_rules.h"

namespace smd::sa {

using namespace mad::sa;
using namespace mcast;

namespace {

/// The values a policy group takes from its spec (scope, hop limit and packet life are set once, at creation),
/// as the group holds them and as the spec gives them, in one order: setting and comparing read one list, so
/// the two cannot drift apart.
template <class Group>  // McastGroup, const or not
auto policy_values(Group& g) {
  return std::tie(g.q_key, g.mtu, g.rate, g.sl, g.tclass, g.flow_label, g.pkey);
}
auto wanted_values(const McastPolicyGroup& w) {
  return std::tie(w.props.q_key, w.props.mtu, w.props.rate, w.props.sl, w.props.tclass, w.props.flow_label, w.pkey);
}

void set_policy_values(McastGroup& g, const McastPolicyGroup& w) { policy_values(g) = wanted_values(w); }

bool differs_from_policy(const McastGroup& g, const McastPolicyGroup& w) {
  return policy_values(g) != wanted_values(w);
}

/// The IPoIB broadcast group of partition `p` in `scope` (RFC 4391 4), with its `ipoib:` values.
McastGroupSpec ipoib_group(const PartitionSpec& p, std::uint8_t scope) {
  McastGroupSpec s;
  s.mgid = ipoib_broadcast_mgid(p.pkey, scope);
  s.mtu = p.ipoib.mtu;
  s.rate = p.ipoib.rate;
  s.sl = p.ipoib.sl;
  s.scope = scope;
  s.q_key = p.ipoib.q_key;
  s.tclass = p.ipoib.tclass;
  s.flow_label = p.ipoib.flow_label;
  return s;
}

}  // namespace

std::vector<McastPolicyGroup> policy_groups(const PartitionsSpec& spec) {
  std::vector<McastPolicyGroup> wanted;
  for (const PartitionSpec& p : spec.partitions) {
    const std::uint16_t pkey = static_cast<std::uint16_t>(p.pkey | kPKeyFullBit);
    if (p.ipoib.enabled) {
      for (std::uint8_t scope : p.ipoib.scopes) {
        const McastGroupSpec s = ipoib_group(p, scope);
        wanted.push_back({s.mgid, pkey, s});
      }
    }
    for (McastGroupSpec s : p.groups) {
      const std::uint16_t sig = mgid_signature(s.mgid);
      // An IPoIB MGID with P_Key 0 belongs to its partition (OpenSM fills it in the same way).
      if ((sig == 0x401B || sig == 0x601B) && s.mgid[4] == 0 && s.mgid[5] == 0) {
        s.mgid[4] = static_cast<std::uint8_t>(pkey >> 8);
        s.mgid[5] = static_cast<std::uint8_t>(pkey);
      }
      if (s.mgid[0] == 0xff) s.scope = s.mgid[1] & 0xF;
      wanted.push_back({s.mgid, pkey, s});
    }
  }
  return wanted;
}

bool McastDb::retire_unlisted(const std::vector<McastPolicyGroup>& wanted, std::vector<McastEvent>& events) {
  bool moved = false;
  for (auto it = groups_.begin(); it != groups_.end();) {
    const bool kept =
        std::any_of(wanted.begin(), wanted.end(), [&](const McastPolicyGroup& w) { return w.mgid == it->first; });
    auto next = std::next(it);
    if (!kept && it->second.well_known) {
      it->second.well_known = false;
      moved = true;
      const Gid mgid = it->first;
      if (it->second.bit_count[0] == 0 && it->second.bit_count[3] == 0) {
        mlids_.release(it->second.mlid);
        groups_.erase(it);
        events.push_back({false, mgid});
      }
    }
    it = next;
  }
  return moved;
}

bool McastDb::apply_policy_group(const McastPolicyGroup& w, const McastContext& ctx, std::vector<McastEvent>& events,
                                 std::vector<Gid>* no_mlid, std::vector<Gid>* values_kept) {
  if (const auto it = groups_.find(w.mgid); it != groups_.end()) {
    McastGroup& g = it->second;
    const bool was_known = g.well_known;
    g.well_known = true;
    if (!differs_from_policy(g, w)) return !was_known;
    if (!g.members.empty()) {  // members joined with the values it has: they stay until it is empty
      if (values_kept != nullptr) values_kept->push_back(w.mgid);
      return !was_known;
    }
    set_policy_values(g, w);
    return true;
  }
  const std::optional<Lid> mlid = mlids_.lowest_free(ctx.mlid_top);
  if (!mlid) {
    if (no_mlid != nullptr) no_mlid->push_back(w.mgid);
    return false;
  }
  McastGroup g;
  g.mgid = w.mgid;
  g.mlid = *mlid;
  set_policy_values(g, w);
  g.scope = w.props.scope & 0xF;
  g.hop_limit = g.scope == kScopeLinkLocal ? 0 : 0xFF;
  g.packet_life = ctx.packet_life;
  g.well_known = true;
  mlids_.hold(g.mlid);
  groups_.emplace(g.mgid, std::move(g));
  events.push_back({true, w.mgid});
  return true;
}

std::vector<McastEvent> McastDb::apply_policy(const PartitionsSpec& spec, const McastContext& ctx, bool* changed,
                                              std::vector<Gid>* no_mlid, std::vector<Gid>* values_kept) {
  const std::vector<McastPolicyGroup> wanted = policy_groups(spec);
  std::vector<McastEvent> events;
  bool moved = retire_unlisted(wanted, events);
  for (const McastPolicyGroup& w : wanted) moved = apply_policy_group(w, ctx, events, no_mlid, values_kept) || moved;
  if (changed) *changed = moved || !events.empty();
  return events;
}

}  // namespace smd::sa
