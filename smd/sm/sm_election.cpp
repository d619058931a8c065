#include "smd/sm/sm_election.h"

namespace smd {

bool sm_outranks(unsigned prio_a, Guid guid_a, unsigned prio_b, Guid guid_b) {
  return prio_a != prio_b ? prio_a > prio_b : guid_a < guid_b;
}

bool sm_key_matches(std::uint64_t presented, std::uint64_t own_key) { return presented == own_key; }

std::uint64_t sm_key_in_response(std::uint64_t requester_key, std::uint64_t own_key) {
  return sm_key_matches(requester_key, own_key) ? own_key : 0;
}

PeerVerdict judge_peer(const SmSelf& self, const mad::SmInfo& peer) {
  if (!sm_key_matches(peer.sm_key, self.sm_key)) return PeerVerdict::kDistrust;
  const bool they_win = sm_outranks(peer.priority, peer.guid, self.priority, self.guid);
  switch (peer.state) {
    case mad::SmState::kMaster:
      // Two masters: the lower one yields. A DISCOVERING or STANDBY SM follows any master it finds
      // (IBA 14.4.1.1), even a lower one; that master then hands over to it.
      if (self.state != mad::SmState::kMaster || they_win) return PeerVerdict::kFollow;
      return PeerVerdict::kIgnore;
    case mad::SmState::kStandby:
      if (self.state == mad::SmState::kMaster && they_win) return PeerVerdict::kHandOver;
      return PeerVerdict::kIgnore;
    case mad::SmState::kDiscovering:
      // A higher-precedence SM still discovering will become master: follow it rather than race it.
      if (self.state == mad::SmState::kDiscovering && they_win) return PeerVerdict::kFollow;
      return PeerVerdict::kIgnore;
    case mad::SmState::kNotActive: return PeerVerdict::kIgnore;
  }
  return PeerVerdict::kIgnore;
}

bool sminfo_set_obeyed(mad::SmState state, std::uint32_t mod, std::uint64_t presented, std::uint64_t own_key) {
  if (!sm_key_matches(presented, own_key)) return false;
  switch (mod) {
    case mad::sminfo_mod::kHandover: return state == mad::SmState::kStandby;
    case mad::sminfo_mod::kDisable:
    case mad::sminfo_mod::kStandby: return state != mad::SmState::kNotActive;
    case mad::sminfo_mod::kDiscover: return true;  // also wakes a NOTACTIVE SM
    default: return false;
  }
}

}  // namespace smd
