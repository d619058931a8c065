// The SM election rules of IBA vol. 1, 14.4.1, as pure functions so they can be tested without a fabric:
// who outranks whom, when a peer's SMInfo is trusted (SM_Key), what a received SMInfo Set may do, and
// what a sweep's discovery of another SM means for this one.
#pragma once

#include <cstdint>

#include "mad/codec/sm_info.h"
#include "routing/base/ids.h"

namespace smd {

/// IBA 14.4.1.1: the higher priority (0..15) wins; equal priorities go to the lower port GUID.
bool sm_outranks(unsigned prio_a, Guid guid_a, unsigned prio_b, Guid guid_b);

/// SM_Key check (IBA 14.4.1.3 / 14.2.5.13): an SMInfo Set, or a peer's SMInfo, counts only when the
/// SM_Key it carries equals ours. With our key 0 ("no key") a peer must present 0 as well.
bool sm_key_matches(std::uint64_t presented, std::uint64_t own_key);

/// The SM_Key to put into our SMInfo GetResp: ours only to a requester that proved it knows it
/// (its Get carried the same key); 0 to everyone else, so the key never leaks (IBA 14.4.1.3).
std::uint64_t sm_key_in_response(std::uint64_t requester_key, std::uint64_t own_key);

/// What this SM does after seeing another SM's SMInfo during a sweep.
enum class PeerVerdict {
  kIgnore,    ///< nothing changes
  kFollow,    ///< go (or stay) STANDBY under that SM
  kHandOver,  ///< we are MASTER and a trusted STANDBY outranks us: send it SMInfo Set(HANDOVER)
  kDistrust,  ///< it answered with a different SM_Key: not part of our election (log it)
};

struct SmSelf {
  mad::SmState state = mad::SmState::kDiscovering;
  unsigned priority = 0;
  Guid guid = 0;
  std::uint64_t sm_key = 0;
};

/// Decide about one peer. `peer.sm_key` is the key the peer returned to our Get (which carried our key):
/// a peer that knows our key returns it (sm_key_in_response), so anything else means a foreign SM.
/// A keyless SM (key 0) trusts a peer that returns 0.
PeerVerdict judge_peer(const SmSelf& self, const mad::SmInfo& peer);

/// Whether a received SMInfo Set with attribute modifier `mod` (sminfo_mod::*) and SM_Key `presented`
/// is obeyed in state `state` (IBA 14.4.1, table 186 and 14.4.1.3): the key must match, and the
/// transition must exist from our state (HANDOVER only to a STANDBY, DISABLE/STANDBY/DISCOVER to any
/// active state). ACKNOWLEDGE never changes state.
bool sminfo_set_obeyed(mad::SmState state, std::uint32_t mod, std::uint64_t presented, std::uint64_t own_key);

}  // namespace smd
