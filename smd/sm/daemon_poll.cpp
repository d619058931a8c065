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

namespace {

// Trap 144 DataDetails (IBA 14.2.5.1 table 147; OpenSM's ntc_144): byte 5 bit 0 OtherLocalChanges, bytes
// 10..11 the change flags, of which 0x0008 is SMPriorityChange.
constexpr std::size_t kTrap144LocalChanges = 5;
constexpr std::size_t kTrap144ChangeFlags = 10;
constexpr std::uint8_t kOtherLocalChanges = 0x01;
constexpr std::uint16_t kSmPriorityChange = 0x0008;

}  // namespace

void Daemon::arm_poll(std::optional<std::chrono::milliseconds> delay) {
  poll_timer_.arm_after(delay ? *delay : std::chrono::milliseconds(std::chrono::seconds(policy_.sm.poll_interval_s)));
}

void Daemon::cancel_poll() { poll_timer_.cancel(); }

void Daemon::await_handover() {
  awaiting_handover_ = true;
  poll_failures_ = 0;
  arm_poll(std::chrono::milliseconds(0));
  publish(nullptr);
  notify::status("MASTER: waiting for lower-priority master " + format_guid(watched_.guid) + " to hand over");
}

void Daemon::stop_awaiting(const std::string& why) {
  if (!awaiting_handover_) return;
  spdlog::info("no longer waiting for {} to hand over: {}", format_guid(watched_.guid), why);
  awaiting_handover_ = false;
  cancel_poll();
}

void Daemon::poll_watched(const DaemonEvent& event) {
  if (!poll_timer_.is_current(event.timer_gen)) return;
  const bool standby = state_ == mad::SmState::kStandby;
  if (!standby && !awaiting_handover_) return;
  // A standby runs no light sweeps: its polls are where it checks that its own port still says IsSM.
  if (standby) ensure_is_sm("poll");
  mad::SmpRequest req;
  if (watched_.by_lid) {
    req.dlid = watched_.lid;
  } else {
    req.path = watched_.path;
  }
  req.attr_id = mad::attr::kSmInfo;
  req.m_key = m_key_of_port(watched_.guid);
  own_sminfo(policy_.sm.sm_key).encode(req.data);
  const std::uint64_t gen = poll_timer_.generation();
  transport_->submit(std::move(req), [this, gen](const mad::SmpReply& r) {
    // The answer only counts for the polling that sent it; what it means is an event.
    if (!poll_timer_.is_current(gen)) return;
    std::optional<mad::SmInfo> answer;
    if (r.outcome == mad::SmpOutcome::kOk) answer = mad::SmInfo::decode(r.data);
    const SmSelf self{state_, policy_.sm.priority, own_guid_, policy_.sm.sm_key};
    const PollVerdict verdict = judge_poll(self, watched_.guid, answer);
    if (answer && verdict != PollVerdict::kFailed) watched_.info = *answer;
    if (answer && verdict != PollVerdict::kFailed && verdict != PollVerdict::kKeyMismatch) note_polled_peer(*answer);
    const std::string who = format_guid(watched_.guid);
    switch (verdict) {
      case PollVerdict::kFailed:
      case PollVerdict::kKeyMismatch:
        if (++poll_failures_ >= policy_.sm.poll_retries) {
          const std::string what =
              verdict == PollVerdict::kKeyMismatch
                  ? " answered with another SM_Key (not one of this subnet's SMs, IBA 14.4.1) in " +
                        std::to_string(poll_failures_) + " polls"
                  : " silent for " + std::to_string(poll_failures_) + " polls";
          post(SmEvent::kMasterLost, (state_ == mad::SmState::kMaster ? "lower master " : "master ") + who + what);
          return;
        }
        break;
      case PollVerdict::kAlive: poll_failures_ = 0; break;
      case PollVerdict::kAliveBelowUs:
        poll_failures_ = 0;
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
  if (watched_.lid == 0 || own_lid_ == 0) {
    spdlog::debug("no trap 144 to {}: LID unknown (ours {}, its {})", format_guid(watched_.guid), own_lid_,
                  watched_.lid);
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
  notice.issuer_lid = own_lid_;
  notice.set_trap144(own_lid_, own_capmask_);
  notice.data_details[kTrap144LocalChanges] = kOtherLocalChanges;
  notice.data_details[kTrap144ChangeFlags] = static_cast<std::uint8_t>(kSmPriorityChange >> 8);
  notice.data_details[kTrap144ChangeFlags + 1] = static_cast<std::uint8_t>(kSmPriorityChange & 0xFF);
  mad::SmpRequest req;
  req.dlid = watched_.lid;
  req.method = mad::Method::kTrap;
  req.attr_id = mad::attr::kNotice;
  notice.encode(req.data);
  std::array<std::uint8_t, mad::kMadSize> trap{};
  mad::encode_smp(req, ++trap_tid_, trap);
  mad::MadAddress to;
  to.lid = watched_.lid;
  if (auto st = transport_->send_raw(to, trap); !st.ok()) {
    spdlog::warn("trap 144 to {}: {}", format_guid(watched_.guid), st.error().message);
    return;
  }
  ++counters_.nudges_sent;
  // Once per watched master at info level; the repeats (one per poll until it hands over) at debug.
  const auto level = nudged_guid_ == watched_.guid ? spdlog::level::debug : spdlog::level::info;
  nudged_guid_ = watched_.guid;
  spdlog::log(level, "trap 144 (SM priority change) to master {} at LID {}: we outrank it", format_guid(watched_.guid),
              watched_.lid);
}

}  // namespace smd
