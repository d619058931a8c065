// The SMInfo agent (IBA 14.4.1): answers to other SMs, the election gate a heavy sweep calls after
// discovery, the handover to a STANDBY that outranks us, and a STANDBY's polling of its master. The rules
// themselves are the pure functions of smd/sm/sm_election.h; state changes go through the event queue.
#include <spdlog/spdlog.h>

#include <optional>
#include <utility>

#include "mad/codec/port_info.h"
#include "mad/transport/smp_batch.h"
#include "smd/sm/daemon.h"
#include "smd/sm/sm_election.h"

namespace smd {

// Master election after discovery (IBA 14.4.1): ask every other port that advertises IsSM for its SMInfo.
bool Daemon::election_gate(const ObservedFabric& d) {
  const Topology& topo = *d.topo;
  SmpBatch batch(io_, *transport_);
  struct Peer {
    mad::DrPath path;
    mad::SmInfo info;
  };
  std::vector<Peer> peers;
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = node.is_switch() ? 0 : 1; p <= node.num_ports; ++p) {
      const mad::PortInfo* pi = d.port_info(n, p);
      if (pi == nullptr || (n == topo.sm_node && p == topo.sm_port)) continue;
      if (node.is_switch() && p != 0) continue;
      if ((pi->capability_mask & mad::capmask::kIsSm) == 0) continue;
      mad::SmpRequest req;
      req.path = d.port_path(n, p);
      req.attr_id = mad::attr::kSmInfo;
      own_sminfo(policy_.sm.sm_key).encode(req.data);  // carries our SM_Key: a peer that shares it returns it
      batch.submit(std::move(req), [&peers, path = d.port_path(n, p)](const mad::SmpReply& r) {
        if (r.outcome == mad::SmpOutcome::kOk) peers.push_back({path, mad::SmInfo::decode(r.data)});
      });
    }
  }
  batch.wait();
  const SmSelf self{state_, policy_.sm.priority, own_guid_, policy_.sm.sm_key};
  const Peer* hand_to = nullptr;
  for (const Peer& peer : peers) {
    const std::string who = "SM " + format_guid(peer.info.guid) + " (priority " + std::to_string(peer.info.priority) +
                            ", " + mad::to_string(peer.info.state) + ") at DR path " + peer.path.to_string();
    switch (judge_peer(self, peer.info)) {
      case PeerVerdict::kFollow:
        master_path_ = peer.path;
        master_guid_ = peer.info.guid;
        become(mad::SmState::kStandby, "following " + who);
        return false;
      case PeerVerdict::kHandOver:
        if (!hand_to || sm_outranks(peer.info.priority, peer.info.guid, hand_to->info.priority, hand_to->info.guid)) {
          hand_to = &peer;
        }
        break;
      case PeerVerdict::kDistrust:
        spdlog::error("{} answered with a different SM_Key: not trusted, left out of the election", who);
        break;
      case PeerVerdict::kIgnore: break;
    }
  }
  if (hand_to && hand_over(hand_to->path, hand_to->info)) return false;
  return true;
}
// IBA 14.4.1.1: a MASTER that finds a STANDBY of higher precedence hands the subnet over with
// SMInfo Set(HANDOVER) and becomes a STANDBY polling it.
bool Daemon::hand_over(const mad::DrPath& path, const mad::SmInfo& to) {
  SmpBatch batch(io_, *transport_);
  mad::SmpRequest req;
  req.path = path;
  req.method = mad::Method::kSet;
  req.attr_id = mad::attr::kSmInfo;
  req.attr_mod = mad::sminfo_mod::kHandover;
  own_sminfo(policy_.sm.sm_key).encode(req.data);
  std::optional<mad::SmInfo> answer;
  batch.submit(std::move(req), [&answer](const mad::SmpReply& r) {
    if (r.outcome == mad::SmpOutcome::kOk) answer = mad::SmInfo::decode(r.data);
  });
  batch.wait();
  const std::string who = format_guid(to.guid) + " (priority " + std::to_string(to.priority) + ")";
  if (!answer || answer->state != mad::SmState::kMaster) {
    spdlog::warn("HANDOVER to {} at DR path {} not taken ({}); staying MASTER", who, path.to_string(),
                 answer ? std::string("it answered ") + mad::to_string(answer->state) : "no answer");
    return false;
  }
  master_path_ = path;
  master_guid_ = to.guid;
  become(mad::SmState::kStandby, "handed over to higher-priority SM " + who);
  return true;
}

void Daemon::become(mad::SmState state, const std::string& why) {
  // Called by election_gate() and hand_over() in the middle of a sweep: the state must not change there
  // (the rest of the sweep, and every answer meanwhile, would see a state the sweep did not start in).
  // The gate returns false, the sweep stops, and its outcome kSweepFoundMaster enters STANDBY.
  if (state != mad::SmState::kStandby) spdlog::error("election gate asked for state {}", mad::to_string(state));
  gate_why_ = why;
}

void Daemon::arm_master_poll() { poll_timer_.arm_after(std::chrono::seconds(policy_.sm.poll_interval_s)); }

void Daemon::cancel_master_poll() { poll_timer_.cancel(); }

void Daemon::poll_master(const DaemonEvent& event) {
  if (!poll_timer_.is_current(event.timer_gen)) return;
  mad::SmpRequest req;
  req.path = master_path_;
  req.attr_id = mad::attr::kSmInfo;
  own_sminfo(policy_.sm.sm_key).encode(req.data);
  const std::uint64_t gen = poll_timer_.generation();
  transport_->submit(std::move(req), [this, gen](const mad::SmpReply& r) {
    // The answer only counts for the polling that sent it; the decision to take over is an event.
    if (state_ != mad::SmState::kStandby || !poll_timer_.is_current(gen)) return;
    const bool alive = r.outcome == mad::SmpOutcome::kOk && mad::SmInfo::decode(r.data).state == mad::SmState::kMaster;
    poll_failures_ = alive ? 0 : poll_failures_ + 1;
    if (poll_failures_ >= policy_.sm.poll_retries) {
      post(SmEvent::kMasterLost, "master " + format_guid(master_guid_) + " silent for " +
                                     std::to_string(poll_failures_) + " polls; taking over");
      return;
    }
    arm_master_poll();
  });
}

mad::SmInfo Daemon::own_sminfo(std::uint64_t sm_key) const {
  mad::SmInfo info;
  info.guid = own_guid_;
  info.sm_key = sm_key;
  info.act_count = act_count_;
  info.priority = static_cast<std::uint8_t>(policy_.sm.priority);
  info.state = state_;
  return info;
}

void Daemon::answer_sminfo(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info) {
  const auto header = mad::decode_smp_header(mad);
  if (!header) return;
  const mad::SmInfo theirs = mad::SmInfo::decode(mad::smp_data(mad));
  const std::uint64_t own_key = policy_.sm.sm_key;
  // Events may wait (a sweep runs): answer for the state they lead to, as the requester will find it.
  mad::SmState state = projected_state();
  if (info.method == static_cast<std::uint8_t>(mad::Method::kSet)) {
    // Another SM steers us (IBA 14.4.1 table 186); only one that knows our SM_Key (14.4.1.3).
    const std::string from = "SM " + format_guid(theirs.guid) + " (LID " + std::to_string(info.from.lid) + ")";
    const std::optional<SmEvent> event = sminfo_set_event(header->attr_mod);
    if (!event || !sminfo_set_obeyed(state, header->attr_mod, theirs.sm_key, own_key)) {
      ++counters_.sminfo_sets_refused;
      spdlog::warn("SMInfo Set (modifier {}) from {} refused in state {}: {}", header->attr_mod, from,
                   mad::to_string(state),
                   sm_key_matches(theirs.sm_key, own_key) ? "no such transition" : "wrong SM_Key");
    } else {
      std::string why;
      switch (*event) {
        case SmEvent::kSetHandover: why = "HANDOVER from " + from; break;
        case SmEvent::kSetDisable: why = "disabled by " + from; break;
        case SmEvent::kSetStandby: why = "told to stand by by " + from; break;
        default: why = "told to discover by " + from; break;
      }
      post(*event, std::move(why));
      // The requester checks the state in our GetResp (a HANDOVER is taken when we answer MASTER).
      state = sm_transition(state, *event).next;
    }
  } else if (state == mad::SmState::kMaster && theirs.guid != 0 && theirs.guid != own_guid_ &&
             theirs.state == mad::SmState::kStandby && sm_key_matches(theirs.sm_key, own_key) &&
             sm_outranks(theirs.priority, theirs.guid, policy_.sm.priority, own_guid_)) {
    // smd's standbys put their own SMInfo into the polls they send: a poll from a standby that outranks
    // us is the cue to sweep, find it and hand over, without waiting for a trap.
    post(SmEvent::kPolledByHigherStandby, "polled by higher-priority SM " + format_guid(theirs.guid));
  }
  mad::SmInfo ours = own_sminfo(sm_key_in_response(theirs.sm_key, own_key));
  ours.state = state;
  mad::SmpData data{};
  ours.encode(data);
  std::array<std::uint8_t, mad::kMadSize> resp{};
  mad::make_smp_response(mad, 0, data, resp);
  if (auto st = transport_->send_response(info, resp); !st.ok()) {
    spdlog::warn("SMInfo response: {}", st.error().message);
  }
}

}  // namespace smd
