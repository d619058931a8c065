// Polling the watched SM: a STANDBY polls its master every sm.poll_interval (IBA 14.4.1.1), and a MASTER
// polls a lower master it found until that one hands over (C14-60.2.1). Every poll carries our SMInfo, so
// an smd on the other end learns who polls it; the answer is judged by judge_poll (smd/sm/sm_election.h)
// and becomes an event. A polled MASTER of lower precedence is nudged with a trap 144 (SM priority change),
// the way OpenSM's poller asks a master to hand over.
#include <spdlog/spdlog.h>

#include "mad/codec/notice.h"
#include "mad/codec/port_info.h"
#include "smd/sm/daemon.h"
#include "smd/sm/notify.h"
#include "smd/sm/sm_election.h"

namespace smd {

void Daemon::arm_poll(std::optional<std::chrono::milliseconds> delay) {
  election_.arm_poll(delay ? *delay : std::chrono::milliseconds(std::chrono::seconds(policy_.sm.poll_interval_s)));
}

void Daemon::cancel_poll() { election_.cancel_poll(); }

void Daemon::await_handover() {
  election_.start_awaiting();
  arm_poll(std::chrono::milliseconds(0));
  publish(nullptr);
  notify::status("MASTER: waiting for lower-priority master " + format_guid(election_.watched().guid) + " to hand over");
}

void Daemon::stop_awaiting(const std::string& why) {
  if (!election_.stop_awaiting()) return;
  spdlog::info("no longer waiting for {} to hand over: {}", format_guid(election_.watched().guid), why);
  cancel_poll();
}

void Daemon::poll_watched(const DaemonEvent& event) {
  if (!election_.is_current_poll(event.timer_gen)) return;
  const bool standby = local_.state == mad::SmState::kStandby;
  if (!standby && !election_.awaiting_handover()) return;
  // A standby runs no light sweeps: its polls are where it checks that its own port still says IsSM.
  if (standby) ensure_is_sm("poll");
  mad::SmpRequest req;
  if (election_.watched().by_lid) {
    req.dlid = election_.watched().lid;
  } else {
    req.path = election_.watched().path;
  }
  req.attr_id = mad::attr::kSmInfo;
  req.m_key = m_key_of_port(election_.watched().guid);
  own_sminfo(policy_.sm.sm_key).encode(req.data);
  const std::uint64_t gen = election_.poll_generation();
  transport_->submit(std::move(req), [this, gen](const mad::SmpReply& r) {
    // The answer only counts for the polling that sent it; what it means is an event.
    if (!election_.is_current_poll(gen)) return;
    std::optional<mad::SmInfo> answer;
    if (r.outcome == mad::SmpOutcome::kOk) answer = mad::SmInfo::decode(r.data);
    const SmSelf self = local_.self(policy_.sm.priority, policy_.sm.sm_key);
    const PollVerdict verdict = judge_poll(self, election_.watched().guid, answer);
    if (answer && verdict != PollVerdict::kFailed) election_.watched().info = *answer;
    if (answer && verdict != PollVerdict::kFailed && verdict != PollVerdict::kKeyMismatch) note_polled_peer(*answer);
    const std::string who = format_guid(election_.watched().guid);
    switch (verdict) {
      case PollVerdict::kFailed:
      case PollVerdict::kKeyMismatch:
        if (const unsigned failures = election_.poll_failed(); failures >= policy_.sm.poll_retries) {
          const std::string what =
              verdict == PollVerdict::kKeyMismatch
                  ? " answered with another SM_Key (not one of this subnet's SMs, IBA 14.4.1) in " +
                        std::to_string(failures) + " polls"
                  : " silent for " + std::to_string(failures) + " polls";
          post(SmEvent::kMasterLost, (local_.state == mad::SmState::kMaster ? "lower master " : "master ") + who + what);
          return;
        }
        break;
      case PollVerdict::kAlive: election_.poll_answered(); break;
      case PollVerdict::kAliveBelowUs:
        election_.poll_answered();
        post(SmEvent::kPolledMasterBelowUs,
             "master " + who + " (priority " + std::to_string(answer->priority) + ") is below us");
        break;
      case PollVerdict::kAboveUs: post(SmEvent::kSweepRequested, "master " + who + " now outranks us"); return;
      case PollVerdict::kNotMaster:
        post(SmEvent::kMasterLost, "lower master " + who + " is " + mad::to_string(answer->state) + " now");
        return;
    }
    arm_poll();
  });
}

void Daemon::nudge_watched() {
  if (election_.watched().lid == 0 || local_.lid == 0) {
    spdlog::debug("no trap 144 to {}: LID unknown (ours {}, its {})", format_guid(election_.watched().guid), local_.lid,
                  election_.watched().lid);
    return;
  }
  mad::Notice notice;
  notice.is_generic = true;
  notice.type = mad::notice_type::kInfo;
  notice.producer_type = runner_->topology() && runner_->topology()->sm_node != kNoNode &&
                                 runner_->topology()->node(runner_->topology()->sm_node).is_switch()
                             ? 2
                             : 1;
  notice.trap_number = mad::trap::kCapabilityMaskChange;
  notice.issuer_lid = local_.lid;
  notice.set_trap144(local_.lid, local_.capmask);
  notice.set_trap144_changes(/*other_local_changes=*/true, mad::trap144_change::kSmPriorityChange);
  mad::SmpRequest req;
  req.dlid = election_.watched().lid;
  req.method = mad::Method::kTrap;
  req.attr_id = mad::attr::kNotice;
  notice.encode(req.data);
  std::array<std::uint8_t, mad::kMadSize> trap{};
  mad::encode_smp(req, election_.next_trap_tid(), trap);
  mad::MadAddress to;
  to.lid = election_.watched().lid;
  if (auto st = transport_->send_raw(to, trap); !st.ok()) {
    spdlog::warn("trap 144 to {}: {}", format_guid(election_.watched().guid), st.error().message);
    return;
  }
  ++record_.counters().nudges_sent;
  // Once per watched master at info level; the repeats (one per poll until it hands over) at debug.
  const auto level = election_.note_nudge(election_.watched().guid) ? spdlog::level::info : spdlog::level::debug;
  spdlog::log(level, "trap 144 (SM priority change) to master {} at LID {}: we outrank it", format_guid(election_.watched().guid),
              election_.watched().lid);
}

}  // namespace smd
