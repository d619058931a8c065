// McastDb: the SA's multicast groups (IBA vol. 1, 15.2.5.17 MCMemberRecord; OpenSM's rules, SA-NOTES §1.4).
// Groups are keyed by MGID; each has an MLID, the properties every member must agree on, and its members
// by port GUID with their JoinState bits. Per-bit member counts decide when a group ends: it lives while a
// member holds FullMember or SendOnlyFullMember, or while the policy pre-creates it (`well_known`), so a
// partial leave (join 0x9, leave 0x1) neither leaks the group nor its MLID (OpenSM PR #43).
//
//   join (Set)    MGID|PortGID|JoinState in the mask, else INSUFFICIENT_COMPONENTS; PortGID prefix fe80::
//                 means the subnet prefix; unknown port, JoinState 0, proxy join without a P_Key shared with
//                 the requester, port not holding the group's P_Key, a masked field that the group does not
//                 satisfy -> REQ_INVALID. A repeated join ORs the bits.
//   create        unknown MGID: needs Full or SendOnlyFull (else REQ_INVALID, OpenSM o15.0.1.9: a join of
//                 a group that does not exist), and Q_Key|TClass|P_Key|FlowLabel|SL (else
//                 INSUFFICIENT_COMPONENTS); MGID 0 gets ff1<scope>:a01b:<prefix>:<counter>; a given MGID
//                 starts 0xff with flag bits 7:5 zero, IPoIB signatures 0x401b/0x601b aside, any scope
//                 (else REQ_INVALID, as OpenSM); MTU and rate are the joiner's port's unless the request's
//                 selector excludes them: then "<" takes one step below the requested value, "exactly" the
//                 value itself, ">" fails (OpenSM's rule); nothing the port carries -> REQ_INVALID; stored
//                 "exactly";
//                 MLID: the requested one if free; else, for an IPv6 solicited-node MGID (ipv6_snm.h) with
//                 ctx.consolidate_ipv6_snm, the MLID of a group of its family (same scope and P_Key) whose
//                 Q_Key, MTU, rate, SL, FlowLabel, TClass, P_Key and HopLimit are its own (one tree then
//                 carries them all; a group that differs is not refused, it gets an MLID of its own); else
//                 the lowest free in [0xC000, mlid_top] (else NO_RESOURCES). Every MGID stays its own group
//                 with its own members (answers, GetTable, leaves); an MLID is free again when the last
//                 group on it ends.
//   leave (Delete) MGID|PortGID|JoinState; clears the given bits, which the port must all hold (else
//                 REQ_INVALID, as OpenSM); a port at 0 is removed; a group left with
//                 no full member and not well_known is deleted (its MLID free again).
// Pure: no I/O, no clock; the caller persists to_json() and reports traps 66/67 from the returned events.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mad/sa/mcmember_record.h"
#include "routing/base/ids.h"
#include "routing/base/status.h"
#include "routing/partitions/partition_plan.h"
#include "routing/partitions/partition_spec.h"
#include "smd/fabric/mcast_groups.h"
#include "smd/sa/mlid_pool.h"
#include "smd/sa/sa_query.h"

namespace smd::sa {


/// One group and its members, as the SM's multicast tree builder needs it: delivered after every change.
struct McastGroupMembers {
  Lid mlid = 0;
  std::array<std::uint8_t, 16> mgid{};
  std::vector<std::pair<Guid, std::uint8_t>> members;  ///< (port GUID, JoinState bits), by GUID
};

/// What a join needs to know about one port.
struct McastPort {
  std::uint8_t mtu = 0;              ///< the port's usable MTU code (1=256 .. 5=4096)
  std::uint8_t rate = 0;             ///< the port's rate code
  std::vector<std::uint16_t> pkeys;  ///< P_Key table entries (bit 15 = full member)
};

/// The fabric as a join sees it.
struct McastContext {
  std::uint64_t subnet_prefix = 0xFE80000000000000ull;
  Lid mlid_top = kMlidFirst + 1023;  ///< highest usable MLID (min MulticastFDBCap over the switches)
  std::uint8_t packet_life = 0x12;   ///< PacketLifeTime of created groups (subnet_timeout)
  /// multicast.consolidate_ipv6_snm: IPv6 solicited-node groups of one scope and P_Key share an MLID when
  /// their properties agree. Turning it off leaves shared MLIDs shared until their groups end.
  bool consolidate_ipv6_snm = true;
  /// The port with this GUID, nullopt when the subnet has no such port.
  std::function<std::optional<McastPort>(Guid)> port;
};

/// A group created or deleted by a call, for traps 66 and 67 (IBA 14.2.5.1, table 130).
struct McastEvent {
  bool created = false;  ///< true: trap 66, false: trap 67
  mad::sa::Gid mgid{};
};

/// One request's answer, with the reason of an error for the log.
struct McastResult {
  SaAnswer answer;
  std::string why;  ///< "" on success
  std::vector<McastEvent> events;
  bool changed = false;  ///< the groups or their members changed (persist, tell the SM)
};

struct McastGroup {
  mad::sa::Gid mgid{};
  Lid mlid = 0;
  std::uint32_t q_key = 0;
  std::uint8_t mtu = 0;
  std::uint8_t rate = 0;
  std::uint8_t sl = 0;
  std::uint32_t flow_label = 0;
  std::uint8_t tclass = 0;
  std::uint8_t hop_limit = 0;
  std::uint8_t scope = 0;
  std::uint16_t pkey = 0;
  std::uint8_t packet_life = 0;
  bool well_known = false;                   ///< pre-created from the partition policy
  Guid created_by = 0;                       ///< the port whose join created it (0: the policy, or a restored file)
  std::map<Guid, std::uint8_t> members;      ///< port GUID -> JoinState
  /// Members that joined for themselves (no ProxyJoin): only they, or a trusted requester, may change or
  /// end their membership (IBA o15-0.1.2; OpenSM's validate_modify). Kept in the state file.
  std::set<Guid> self_joined;
  std::array<std::uint32_t, 4> bit_count{};  ///< members holding JoinState bit i

  /// The group's record for member `port_gid` with `join_state` (selectors "exactly").
  mad::sa::McMemberRecord record(const mad::sa::Gid& port_gid, std::uint8_t join_state) const;
};

/// One group the partition policy wants pre-created (well_known): its MGID, the partition's full P_Key and
/// the values from its spec.
struct McastPolicyGroup {
  mad::sa::Gid mgid{};
  std::uint16_t pkey = 0;
  McastGroupSpec props;
};

/// The groups `spec` pre-creates, in policy order: per partition its IPoIB broadcast group of every scope
/// (when `ipoib` is on), then its `groups:` (an IPoIB MGID given with P_Key bits 0 gets the partition's).
std::vector<McastPolicyGroup> policy_groups(const PartitionsSpec& spec);

class McastDb {
 public:
  /// Set: join (and create). `requester` is the requesting port's GUID (0 when unknown: never a proxy).
  McastResult join(const SaQuery& q, Guid requester, const McastContext& ctx);
  /// Delete: leave.
  McastResult leave(const SaQuery& q, Guid requester, const McastContext& ctx);
  /// Get / GetTable. Trusted (SM_Key): one record per (group, member), one with PortGID 0 for a memberless
  /// group. Untrusted (OpenSM's view): only groups whose P_Key `requester_pkeys` holds, one record each,
  /// the requester's own membership when it is a member, else PortGID 0 and JoinState 0; other ports'
  /// GIDs are never shown (they would cross tenants' partitions).
  SaAnswer find(const SaQuery& q, Guid requester, const std::vector<std::uint16_t>& requester_pkeys,
                std::uint64_t subnet_prefix, std::uint32_t max_records) const;

  /// Pre-create the policy's groups (IPoIB broadcast group per scope of every `ipoib` partition, its
  /// `groups:`), as well_known; groups that were well_known and are no longer in the policy lose the flag
  /// and are removed when no full member is left. Returns the groups created (trap 66) and deleted (trap
  /// 67); `changed` (when given) says whether any group changed at all (a re-applied equal policy: no).
  /// `no_mlid` (optional) gets the policy groups that could not be created because every MLID up to
  /// ctx.mlid_top is in use (they are tried again the next time the policy is applied). `values_kept`
  /// (optional) gets the policy groups whose Q_Key, MTU, rate, SL, TClass, FlowLabel or P_Key the policy
  /// changed while the group has members: they joined with the values it has, so it keeps them until the
  /// last member leaves (the policy's apply when the group is next empty or created).
  std::vector<McastEvent> apply_policy(const PartitionsSpec& spec, const McastContext& ctx, bool* changed = nullptr,
                                       std::vector<mad::sa::Gid>* no_mlid = nullptr,
                                       std::vector<mad::sa::Gid>* values_kept = nullptr);

  /// Take out of every group the members whose port `present` rejects (ports gone from the subnet, as
  /// OpenSM's drop manager does; they join again after ClientReregister when they come back). Groups left
  /// without a full member end. Returns the groups deleted (trap 67); `changed` says whether any member went.
  std::vector<McastEvent> drop_absent(const std::function<bool(Guid)>& present, bool* changed = nullptr);

  const std::map<mad::sa::Gid, McastGroup>& groups() const { return groups_; }
  std::size_t member_count() const;
  /// Every group with its members, by MGID.
  std::vector<McastGroupMembers> snapshot() const;

  /// JSON of every group with its members and the MGID counter (the groups file), keys sorted, one space
  /// per level (what nlohmann's dump(1) gives). `written_by`: the "written_by" stamp of
  /// smd/sa/state_file_origin.h, put in as it is written. Made as text in one pass
  /// (smd/sa/mcast_db_text.cpp): a join storm writes the file of every host's group many times a second.
  std::string to_json(std::optional<Guid> written_by = std::nullopt) const;
  /// Replace everything with `json` (to_json's format). Errors (kInvalidInput) name the entry; on error
  /// nothing changes.
  Status load_json(const std::string& json);

 private:
  /// `no_new_mlid`: when not empty, the group may only share an MLID already in use (consolidation); a
  /// fresh MLID is refused with NO_RESOURCES and this reason.
  McastGroup* create(const mad::sa::McMemberRecord& req, std::uint64_t mask, const McastPort& port,
                     const McastContext& ctx, McastResult& out, const std::string& no_new_mlid);
  /// A fresh SA-made MGID ff1<scope>:a01b:<subnet prefix>:<counter>, the counter moved past MGIDs in use.
  mad::sa::Gid generated_mgid(std::uint8_t scope, std::uint64_t subnet_prefix);
  /// The MLID of an IPv6 SNM group of `g`'s family whose properties agree with `g`'s, at most `top`.
  std::optional<Lid> shared_snm_mlid(const McastGroup& g, Lid top) const;
  /// The MLID a new group `g` gets (OpenSM's get_new_mlid order): `requested` when free, else its IPv6 SNM
  /// family's (consolidation), else the lowest free. `no_new_mlid` as for create(). Refuses into `out`.
  std::optional<Lid> choose_mlid(const McastGroup& g, Lid requested, const McastContext& ctx,
                                 const std::string& no_new_mlid, McastResult& out) const;
  /// apply_policy's steps: clear well_known on the groups `wanted` does not list (ending those with no full
  /// member, into `events`), and bring one listed group to the policy (or create it). Each returns whether
  /// anything changed.
  bool retire_unlisted(const std::vector<McastPolicyGroup>& wanted, std::vector<McastEvent>& events);
  bool apply_policy_group(const McastPolicyGroup& w, const McastContext& ctx, std::vector<McastEvent>& events,
                          std::vector<mad::sa::Gid>* no_mlid, std::vector<mad::sa::Gid>* values_kept);
  void add_bits(McastGroup& g, Guid port, std::uint8_t bits);
  /// Clears `bits` of `port`; true when the group has ended and was erased.
  bool remove_bits(std::map<mad::sa::Gid, McastGroup>::iterator it, Guid port, std::uint8_t bits);

  std::map<mad::sa::Gid, McastGroup> groups_;
  MlidPool mlids_;                     ///< MLIDs in use, with the groups on each
  std::uint32_t next_mgid_ = 1;        ///< counter of generated MGIDs
};

/// The member endports of every MLID in `groups` (McastDb::snapshot()), by MLID: the union over the groups
/// that share it (consolidated IPv6 SNM groups), each port once, sorted; members with JoinState 0 left out.
/// One tree per MLID is built from this, so a leave from one MGID keeps the branches its other groups need.
std::vector<McastGroupGuids> members_by_mlid(const std::vector<McastGroupMembers>& groups);

}  // namespace smd::sa
