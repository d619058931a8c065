#include "smd/sm/sm_election.h"

namespace smd {

namespace {

using mad::SmState;

bool outranks(const mad::SmInfo& a, const mad::SmInfo& b) {
  return sm_outranks(a.priority, a.guid, b.priority, b.guid);
}

bool outranks_self(const mad::SmInfo& peer, const SmSelf& self) {
  return sm_outranks(peer.priority, peer.guid, self.priority, self.guid);
}

// Index of the highest-precedence peer among those `want` accepts, or nullopt.
template <typename Want>
std::optional<std::size_t> highest(std::span<const mad::SmInfo> peers, Want want) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    if (!want(peers[i])) continue;
    if (!best || outranks(peers[i], peers[*best])) best = i;
  }
  return best;
}

}  // namespace

bool sm_outranks(unsigned prio_a, Guid guid_a, unsigned prio_b, Guid guid_b) {
  return prio_a != prio_b ? prio_a > prio_b : guid_a < guid_b;
}

bool sm_key_matches(std::uint64_t presented, std::uint64_t own_key) { return presented == own_key; }

PeerVerdict judge_peer(const SmSelf& self, const mad::SmInfo& peer) {
  if (!sm_key_matches(peer.sm_key, self.sm_key)) return PeerVerdict::kDistrust;
  const bool they_win = outranks_self(peer, self);
  if (self.state != SmState::kMaster) {
    // DISCOVERING (the gate runs in no other state but MASTER): any master, or a higher SM that is
    // looking for the subnet or standing by, is the one to follow (OpenSM: master_sm_found).
    if (peer.state == SmState::kMaster) return PeerVerdict::kFollow;
    if ((peer.state == SmState::kDiscovering || peer.state == SmState::kStandby) && they_win) {
      return PeerVerdict::kFollow;
    }
    return PeerVerdict::kIgnore;
  }
  switch (peer.state) {
    case SmState::kMaster: return they_win ? PeerVerdict::kYield : PeerVerdict::kAwaitHandover;
    case SmState::kStandby: return they_win ? PeerVerdict::kHandOver : PeerVerdict::kIgnore;
    case SmState::kDiscovering:  // it will find us as master, stand by, and then be handed over to
    case SmState::kNotActive: return PeerVerdict::kIgnore;
  }
  return PeerVerdict::kIgnore;
}

ElectionDecision decide_election(const SmSelf& self, std::span<const mad::SmInfo> peers) {
  // A peer qualifies when judge_peer's verdict on it is `a` or `b`.
  auto verdict_is = [&self](PeerVerdict a, PeerVerdict b) {
    return [&self, a, b](const mad::SmInfo& p) {
      const PeerVerdict v = judge_peer(self, p);
      return v == a || v == b;
    };
  };
  if (self.state != SmState::kMaster) {
    auto follow = verdict_is(PeerVerdict::kFollow, PeerVerdict::kFollow);
    auto master = highest(peers, [&](const mad::SmInfo& p) { return follow(p) && p.state == SmState::kMaster; });
    if (!master) master = highest(peers, follow);
    if (master) return {ElectionOutcome::kFollow, *master};
    return {};
  }
  if (auto top = highest(peers, verdict_is(PeerVerdict::kHandOver, PeerVerdict::kYield))) {
    return {peers[*top].state == SmState::kMaster ? ElectionOutcome::kYield : ElectionOutcome::kHandOver, *top};
  }
  if (auto lower = highest(peers, verdict_is(PeerVerdict::kAwaitHandover, PeerVerdict::kAwaitHandover))) {
    return {ElectionOutcome::kAwaitHandover, *lower};
  }
  return {};
}

PollVerdict judge_poll(const SmSelf& self, Guid polled_guid, const std::optional<mad::SmInfo>& answer) {
  if (!answer || answer->guid != polled_guid) return PollVerdict::kFailed;
  if (!sm_key_matches(answer->sm_key, self.sm_key)) return PollVerdict::kKeyMismatch;
  const bool they_win = outranks_self(*answer, self);
  if (self.state == SmState::kMaster) {
    if (answer->state != SmState::kMaster) return PollVerdict::kNotMaster;
    return they_win ? PollVerdict::kAboveUs : PollVerdict::kAliveBelowUs;
  }
  if (answer->state == SmState::kMaster) return they_win ? PollVerdict::kAlive : PollVerdict::kAliveBelowUs;
  // A standby that outranks us may be about to take over (OpenSM keeps polling it too).
  if (answer->state == SmState::kStandby && they_win) return PollVerdict::kAlive;
  return PollVerdict::kFailed;
}

const char* to_string(PeerVerdict verdict) {
  switch (verdict) {
    case PeerVerdict::kIgnore: return "ignore";
    case PeerVerdict::kFollow: return "follow";
    case PeerVerdict::kHandOver: return "hand-over";
    case PeerVerdict::kYield: return "yield";
    case PeerVerdict::kAwaitHandover: return "await-handover";
    case PeerVerdict::kDistrust: return "distrust";
  }
  return "?";
}

const char* to_string(ElectionOutcome outcome) {
  switch (outcome) {
    case ElectionOutcome::kConfigure: return "configure";
    case ElectionOutcome::kFollow: return "follow";
    case ElectionOutcome::kHandOver: return "hand-over";
    case ElectionOutcome::kYield: return "yield";
    case ElectionOutcome::kAwaitHandover: return "await-handover";
  }
  return "?";
}

}  // namespace smd
