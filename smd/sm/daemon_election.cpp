// The election (IBA 14.4.1.1): the gate a heavy sweep calls after discovery, the handover to an SM that
// outranks us, and the light sweep's look at the SMs the last gate found. The rules are the pure functions
// of smd/sm/sm_election.h; the gate never changes the state: a stopped sweep's outcome does.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "mad/codec/port_info.h"
#include "mad/transport/smp_batch.h"
#include "smd/sm/daemon.h"
#include "smd/sm/sm_election.h"

namespace smd {

namespace {

std::string describe_sm(const WatchedSm& sm) {
  return "SM " + format_guid(sm.guid) + " (priority " + std::to_string(sm.info.priority) + ", " +
         mad::to_string(sm.info.state) + ", LID " + std::to_string(sm.lid) + ") at DR path " + sm.path.to_string();
}

// Says what changed about a peer since the last look: a new SM by name (an operator sees OpenSM join in
// the log, not only its effect), then its state moves (DISCOVERING -> STANDBY, MASTER -> gone...).
void log_peer_change(const WatchedSm* before, const WatchedSm& now) {
  if (before == nullptr) {
    spdlog::info("{} joined the subnet", describe_sm(now));
  } else if (before->info.state != now.info.state || before->info.priority != now.info.priority) {
    spdlog::info("{} was {} (priority {})", describe_sm(now), mad::to_string(before->info.state),
                 before->info.priority);
  }
}

}  // namespace

void Daemon::note_polled_peer(const mad::SmInfo& answer) {
  const KnownSms::Polled polled = election_.known().note_polled(election_.watched(), answer);
  log_peer_change(polled.was ? &*polled.was : nullptr, polled.now);
  if (polled.changed) publish(nullptr);
}

SweepRunner::GateVerdict Daemon::election_gate(const ObservedFabric& d) {
  const Topology& topo = *d.topo;
  if (topo.sm_node != kNoNode) ensure_is_sm("discovery", d.port_info(topo.sm_node, topo.sm_port));
  const std::vector<WatchedSm> answered = read_peer_sminfo(d);
  const SmSelf self = local_.self(policy_.sm.priority, policy_.sm.sm_key);
  const std::vector<mad::SmInfo> infos = admit_peers(self, answered);
  return act_on_election(decide_election(self, infos));
}

std::vector<WatchedSm> Daemon::read_peer_sminfo(const ObservedFabric& d) {
  const Topology& topo = *d.topo;
  // Every other port that advertises IsSM, and every port of an SM that reached us with its SMInfo (its
  // IsSM may be missing: ibsim clears it when an earlier process on that port dies).
  SmpBatch batch(io_, *transport_);
  std::vector<WatchedSm> answered;
  const mad::SmInfo ours = own_sminfo(policy_.sm.sm_key);
  for (NodeIndex n = 0; n < topo.size(); ++n) {
    const Node& node = topo.node(n);
    for (PortNum p = node.is_switch() ? 0 : 1; p <= node.num_ports; ++p) {
      const mad::PortInfo* pi = d.port_info(n, p);
      if (pi == nullptr || (n == topo.sm_node && p == topo.sm_port)) continue;
      if (node.is_switch() && p != 0) continue;
      const Guid port_guid = node.ports[p].guid ? node.ports[p].guid : node.guid;
      if ((pi->capability_mask & mad::capmask::kIsSm) == 0 && !election_.known().was_heard(port_guid)) continue;
      mad::SmpRequest req;
      req.path = d.port_path(n, p);
      req.attr_id = mad::attr::kSmInfo;
      req.m_key = m_key_of_port(port_guid);
      ours.encode(req.data);  // our SMInfo: an smd peer learns who asks
      WatchedSm sm{req.path, false, port_guid, pi->lid, {}};
      batch.submit(std::move(req), [this, &answered, sm](const mad::SmpReply& r) mutable {
        if (r.outcome != mad::SmpOutcome::kOk) {
          election_.known().forget_heard(sm.guid);
          return;
        }
        sm.info = mad::SmInfo::decode(r.data);
        if (sm.info.guid != sm.guid) {
          spdlog::warn("SMInfo at DR path {} names port GUID {}, the port is {}: ignored", sm.path.to_string(),
                       format_guid(sm.info.guid), format_guid(sm.guid));
          return;
        }
        answered.push_back(std::move(sm));
      });
    }
  }
  batch.wait();
  return answered;
}

std::vector<mad::SmInfo> Daemon::admit_peers(const SmSelf& self, const std::vector<WatchedSm>& answered) {
  std::vector<mad::SmInfo> infos;
  const std::vector<WatchedSm> before = election_.known().list();
  std::vector<WatchedSm> trusted;
  for (const WatchedSm& sm : answered) {
    if (judge_peer(self, sm.info) == PeerVerdict::kDistrust) {
      spdlog::error("{} answered with another SM_Key (0x{:x}): not trusted, left out of the election", describe_sm(sm),
                    sm.info.sm_key);
      continue;
    }
    log_peer_change(find_sm(before, sm.guid), sm);
    trusted.push_back(sm);
    infos.push_back(sm.info);
  }
  if (election_.known().replace(std::move(trusted))) sa_publisher_.note_other_master();
  if (!election_.known().list().empty()) ++record_.counters().elections;
  return infos;
}

SweepRunner::GateVerdict Daemon::act_on_election(const ElectionDecision& decision) {
  using Verdict = SweepRunner::GateVerdict;
  if (decision.outcome == ElectionOutcome::kConfigure) return Verdict::kConfigure;
  const WatchedSm& peer = election_.known().list()[decision.peer];
  const std::string who = describe_sm(peer);
  spdlog::info("election in state {}: {} {}", mad::to_string(local_.state), to_string(decision.outcome), who);
  switch (decision.outcome) {
    case ElectionOutcome::kFollow:
      election_.watched() = peer;
      sweeps_.set_gate_why("following " + who);
      return Verdict::kStandBy;
    case ElectionOutcome::kHandOver:
      // IBA 14.4.1.1: the master hands the subnet to a standby of higher precedence, which takes it by
      // answering; if it does not, this SM stays master and goes on configuring.
      if (!hand_over(peer, peer.info)) return Verdict::kConfigure;
      election_.watched() = peer;
      sweeps_.set_gate_why("handed over to higher-priority " + who);
      return Verdict::kStandBy;
    case ElectionOutcome::kYield:
      // Two masters: the lower one hands its part over to the higher one and stands by under it, whether
      // or not the HANDOVER is answered (the higher master keeps the subnet either way; polling it tells).
      (void)hand_over(peer, peer.info);
      election_.watched() = peer;
      sweeps_.set_gate_why("yielded to higher-priority master " + who);
      return Verdict::kStandBy;
    case ElectionOutcome::kAwaitHandover:
      // Two masters, and we outrank the other one: it hands over to us (it finds us in its own sweep, or
      // our poll, which carries our SMInfo, tells it); meanwhile nothing of the subnet is written twice.
      ++record_.counters().two_masters_found;
      election_.watched() = peer;
      sweeps_.set_gate_why("waiting for lower-priority master " + who + " to hand over");
      spdlog::warn("two masters: {}", sweeps_.gate_why());
      return Verdict::kWait;
    case ElectionOutcome::kConfigure: break;
  }
  return Verdict::kConfigure;
}

bool Daemon::hand_over(const WatchedSm& to, const mad::SmInfo& info) {
  SmpBatch batch(io_, *transport_);
  mad::SmpRequest req;
  req.path = to.path;
  req.method = mad::Method::kSet;
  req.attr_id = mad::attr::kSmInfo;
  req.attr_mod = mad::sminfo_mod::kHandover;
  req.m_key = m_key_of_port(to.guid);
  own_sminfo(policy_.sm.sm_key).encode(req.data);
  std::optional<mad::SmpReply> reply;
  batch.submit(std::move(req), [&reply](const mad::SmpReply& r) { reply = r; });
  batch.wait();
  const std::string who =
      format_guid(info.guid) + " (priority " + std::to_string(info.priority) + ", " + mad::to_string(info.state) + ")";
  if (!reply || reply->outcome != mad::SmpOutcome::kOk) {
    spdlog::warn("HANDOVER to {} at DR path {} not taken: {}", who, to.path.to_string(),
                 reply ? describe_failure(*reply) : std::string("no answer"));
    return false;
  }
  ++record_.counters().handovers_sent;
  spdlog::info("HANDOVER to {} at DR path {} taken (it answered {})", who, to.path.to_string(),
               mad::to_string(mad::SmInfo::decode(reply->data).state));
  return true;
}

bool Daemon::other_sms_need_sweep(std::string& reason) {
  if (election_.known().list().empty()) return false;
  SmpBatch batch(io_, *transport_);
  const SmSelf self = local_.self(policy_.sm.priority, policy_.sm.sm_key);
  const mad::SmInfo ours = own_sminfo(policy_.sm.sm_key);
  std::vector<Guid> gone;
  unsigned masters = 0;
  for (WatchedSm& sm : election_.known().entries()) {
    if (election_.awaiting_handover() && sm.guid == election_.watched().guid) continue;  // polled already
    mad::SmpRequest req;
    req.path = sm.path;
    req.attr_id = mad::attr::kSmInfo;
    req.m_key = m_key_of_port(sm.guid);
    ours.encode(req.data);
    batch.submit(std::move(req), [&, sm_ptr = &sm](const mad::SmpReply& r) {
      if (r.outcome != mad::SmpOutcome::kOk) {
        gone.push_back(sm_ptr->guid);
        return;
      }
      const mad::SmInfo info = mad::SmInfo::decode(r.data);
      if (info.guid != sm_ptr->guid || !sm_key_matches(info.sm_key, self.sm_key)) return;
      const WatchedSm before = *sm_ptr;
      sm_ptr->info = info;
      log_peer_change(&before, *sm_ptr);
      if (info.state == mad::SmState::kMaster) ++masters;
      const PeerVerdict v = judge_peer(self, info);
      if (reason.empty() &&
          (v == PeerVerdict::kYield || v == PeerVerdict::kAwaitHandover || v == PeerVerdict::kHandOver)) {
        reason = describe_sm(*sm_ptr) + (v == PeerVerdict::kHandOver ? " outranks us" : " is master too");
      }
    });
  }
  batch.wait();
  for (const Guid g : gone) {
    if (const WatchedSm* sm = find_sm(election_.known().list(), g))
      spdlog::info("{} no longer answers: left the subnet", describe_sm(*sm));
  }
  if (election_.known().after_light_sweep(gone, masters, election_.awaiting_handover())) sa_publisher_.note_other_master();
  return !reason.empty();
}

}  // namespace smd
