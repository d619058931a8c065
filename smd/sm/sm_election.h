// The SM election rules of IBA vol. 1, 14.4.1, as pure functions so they can be tested without a fabric:
// who outranks whom, when a peer's SMInfo is trusted (SM_Key), what one peer found in a sweep means for
// this SM, what all of them together decide, and what the answer to a poll says.
//
// The rules, with the OpenSM 3.3.23 behaviour they interoperate with (osm_state_mgr.c, osm_sminfo_rcv.c):
//  - Precedence: higher priority, then lower port GUID (14.4.1.1).
//  - A peer's SMInfo counts only when the SM_Key it returned equals ours (OpenSM: "ERR 2F18 ... doesn't
//    match our local sm_key. Ignoring SMInfo"). 0 is a key like any other: a keyless SM trusts keyless peers.
//  - A DISCOVERING SM follows any MASTER it finds, and a DISCOVERING or STANDBY SM that outranks it.
//  - A MASTER hands over (SubnSet(SMInfo) HANDOVER) to the highest SM that outranks it, STANDBY or MASTER,
//    and stands by under it. A MASTER that outranks another MASTER keeps the subnet, configures nothing while
//    the other one is master, and polls it until it hands over (C14-60.2.1); every poll answer from it nudges
//    it with a trap 144 (SM priority change), as OpenSM's own poller does.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "mad/codec/sm_info.h"
#include "routing/base/ids.h"

namespace smd {

/// IBA 14.4.1.1: the higher priority (0..15) wins; equal priorities go to the lower port GUID.
bool sm_outranks(unsigned prio_a, Guid guid_a, unsigned prio_b, Guid guid_b);

/// SM_Key check (IBA 14.4.1.3): an SMInfo Set, or a peer's SMInfo, counts only when the SM_Key it
/// carries equals ours.
bool sm_key_matches(std::uint64_t presented, std::uint64_t own_key);

/// What this SM does about one peer whose SMInfo it read during a sweep.
enum class PeerVerdict : std::uint8_t {
  kIgnore,         ///< nothing changes
  kFollow,         ///< go STANDBY under it (we are DISCOVERING: it is master, or will be)
  kHandOver,       ///< we are MASTER and this STANDBY outranks us: send it HANDOVER, then stand by
  kYield,          ///< we are MASTER and this MASTER outranks us: send it HANDOVER, then stand by
  kAwaitHandover,  ///< we are MASTER and outrank this MASTER: wait for its HANDOVER, polling it
  kDistrust,       ///< it returned another SM_Key: not part of our election (log it)
};

struct SmSelf {
  mad::SmState state = mad::SmState::kDiscovering;
  unsigned priority = 0;
  Guid guid = 0;
  std::uint64_t sm_key = 0;
};

/// Decide about one peer. `peer.sm_key` is the key the peer returned to our Get.
PeerVerdict judge_peer(const SmSelf& self, const mad::SmInfo& peer);

/// What one heavy sweep's look at the other SMs decides (the election gate).
enum class ElectionOutcome : std::uint8_t {
  kConfigure,      ///< no SM stands in the way: this SM configures the fabric
  kFollow,         ///< stand by under `peer`
  kHandOver,       ///< send `peer` (a STANDBY) HANDOVER, then stand by under it
  kYield,          ///< send `peer` (a MASTER) HANDOVER, then stand by under it
  kAwaitHandover,  ///< stay MASTER, configure nothing, poll `peer` (a MASTER) until it hands over
};

struct ElectionDecision {
  ElectionOutcome outcome = ElectionOutcome::kConfigure;
  std::size_t peer = 0;  ///< index into the peers given (not for kConfigure)

  friend bool operator==(const ElectionDecision&, const ElectionDecision&) = default;
};

/// Decide from every peer that answered (distrusted ones are skipped). Order of the rules: follow (we are
/// DISCOVERING: the highest MASTER, else the highest SM that outranks us); hand over or yield to the highest
/// SM that outranks us (MASTER or STANDBY); await the highest MASTER below us; else configure.
ElectionDecision decide_election(const SmSelf& self, std::span<const mad::SmInfo> peers);

/// What the answer to one poll of the SM this one watches says (STANDBY: its master; MASTER: the lower
/// master it waits for). `answer` is the SMInfo of a status-0 GetResp, nullopt when none came.
enum class PollVerdict : std::uint8_t {
  kFailed,  ///< no answer, another port GUID, or a state that keeps no subnet: one failed poll
  /// It answered with another SM_Key: not an SM of this subnet's group (IBA 14.4.1), so it counts as a
  /// failed poll too, but the log says it answered.
  kKeyMismatch,
  kAlive,         ///< STANDBY: the master (or a standby that outranks us) is there
  kAliveBelowUs,  ///< it is MASTER and we outrank it: nudge it (trap 144) so it hands over
  kAboveUs,       ///< MASTER awaiting: it outranks us now: sweep (the gate yields to it)
  kNotMaster,     ///< MASTER awaiting: it gave mastership up: sweep and configure its part
};

PollVerdict judge_poll(const SmSelf& self, Guid polled_guid, const std::optional<mad::SmInfo>& answer);

/// Short stable names for logs: "follow", "hand-over", "await-handover", ...
const char* to_string(PeerVerdict verdict);
const char* to_string(ElectionOutcome outcome);

}  // namespace smd
