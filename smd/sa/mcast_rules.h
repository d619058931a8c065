// The rules of a multicast group's values that the join, the create, the policy and the groups file share
// (IBA 15.2.5.17, table 222 selectors; OpenSM's choices where the IBA leaves them open). Internal to McastDb's
// files (mcast_db*.cpp): pure functions, no state.
#pragma once

#include <cstdint>
#include <string>

#include "mad/sa/mcmember_record.h"
#include "smd/sa/mcast_db.h"

namespace smd::sa::mcast {

inline constexpr std::uint64_t kLinkLocalPrefix = 0xFE80000000000000ull;
/// A join or leave names the group, the port and the bits (else INSUFFICIENT_COMPONENTS).
inline constexpr std::uint64_t kJoinNeeds = [] {
  using enum mad::sa::McMemberRecordField;
  return mad::sa::mask_bit(kMgid) | mad::sa::mask_bit(kPortGid) | mad::sa::mask_bit(kJoinState);
}();
/// A join that creates a group also gives the values every later member must agree on.
inline constexpr std::uint64_t kCreateNeeds = [] {
  using enum mad::sa::McMemberRecordField;
  return kJoinNeeds | mad::sa::mask_bit(kQKey) | mad::sa::mask_bit(kTClass) | mad::sa::mask_bit(kPKey) |
         mad::sa::mask_bit(kFlowLabel) | mad::sa::mask_bit(kSl);
}();
/// The JoinState bits that keep a group alive (FullMember, SendOnlyFullMember).
inline constexpr std::uint8_t kFullBits = mad::sa::join_state::kFull | mad::sa::join_state::kSendOnlyFull;
inline constexpr std::uint8_t kScopeLinkLocal = 2;

/// A refused request: `status` with `why` for the log.
McastResult refusal(std::uint16_t status, std::string why);
/// True for the all-zero GID (16 zero bytes): a join's MGID of 0 asks the SA to choose one (IBA 15.2.5.17).
bool is_zero_gid(const mad::sa::Gid& g);
/// Bytes 2..3 of an MGID: 0x401B/0x601B IPoIB (IPv4/IPv6), 0xA01B the SA's own.
std::uint16_t mgid_signature(const mad::sa::Gid& mgid);
/// The fields of `req` selected by `mask` that group `g` does not satisfy, "" when it satisfies all.
std::string mismatch(const McastGroup& g, const mad::sa::McMemberRecord& req, std::uint64_t mask);
/// A new group's value by its selector: the request's value moved one step, `deflt` when not given.
int pick_step(std::uint64_t mask, std::uint64_t value_bit, std::uint64_t sel_bit, std::uint8_t sel, int value,
              int deflt);
/// MTU code (1..5) of a new group from the joiner's port MTU and the request's selector; 0: none fits.
int pick_mtu(std::uint64_t mask, const mad::sa::McMemberRecord& req, int port_mtu);
/// Rate code of a new group by the rule of pick_mtu over Gb/s; 0: none fits.
std::uint8_t pick_rate(std::uint64_t mask, const mad::sa::McMemberRecord& req, std::uint8_t port_rate);
/// Whether two groups may share one MLID: IPv6 SNM groups of one family with equal properties.
bool may_share_mlid(const McastGroup& a, const McastGroup& b);

}  // namespace smd::sa::mcast
