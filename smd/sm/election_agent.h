// ElectionAgent: what this SM keeps between elections (IBA 14.4.1.1), owned apart from the Daemon.
//
// The heavy sweep's gate decides (sm_election.h) and leaves its verdict here; the other SMs it read are
// KnownSms. Between sweeps the agent polls one SM: a STANDBY its master, a MASTER the lower master it
// waits for until that one hands over (C14-60.2.1). The rules it keeps: a poll that fails or answers with
// another SM_Key counts, and only sm.poll_retries of them in a row lose the master; any good answer starts
// the count afresh; the traps this SM sends (trap 144 nudges) carry TIDs of their own; a master is nudged
// once per poll, but only the first nudge of each master is news (the repeats are logged at debug).
// The Daemon sends the SMPs and turns answers into events; this class holds no transport.
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>

#include "smd/sm/daemon_event.h"
#include "smd/sm/event_timer.h"
#include "smd/sm/known_sms.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

class ElectionAgent {
 public:
  using GateVerdict = SweepRunner::GateVerdict;

  /// The poll timer posts kPollDue (stamped with its generation) through `post`.
  ElectionAgent(boost::asio::io_context& io, std::function<void(DaemonEvent)> post);

  /// The other SMs: the last gate's, updated by polls and light sweeps.
  KnownSms& known() { return known_; }
  const KnownSms& known() const { return known_; }

  /// What the last gate decided; a sweep starts at kConfigure and reads it when its outcome is applied.
  GateVerdict gate() const { return gate_; }
  void set_gate(GateVerdict verdict) { gate_ = verdict; }

  /// STANDBY: the master; MASTER: the lower master awaited. Meaningless before the first follow or wait.
  WatchedSm& watched() { return watched_; }
  const WatchedSm& watched() const { return watched_; }

  /// Poll the watched SM after `delay`: every earlier arming is overtaken.
  void arm_poll(std::chrono::milliseconds delay) { poll_timer_.arm_after(delay); }
  /// No poll is due, and no answer to an earlier one counts (is_current_poll false).
  void cancel_poll() { poll_timer_.cancel(); }
  /// True when `gen` (a kPollDue's timer_gen, or poll_generation() when a poll was sent) is the latest arming.
  bool is_current_poll(std::uint64_t gen) const { return poll_timer_.is_current(gen); }
  std::uint64_t poll_generation() const { return poll_timer_.generation(); }

  /// MASTER: the watched SM is a lower master we poll until it hands over.
  bool awaiting_handover() const { return awaiting_; }
  /// Start waiting for the watched SM to hand over; its failures count from zero.
  void start_awaiting() {
    awaiting_ = true;
    failures_ = 0;
  }
  /// Stop waiting. True when it was waiting.
  bool stop_awaiting();

  /// A poll failed (no answer, or another SM_Key): the failures in a row, this one included.
  unsigned poll_failed() { return ++failures_; }
  /// A poll was answered (or polling starts afresh): the count of failures in a row is zero again.
  void poll_answered() { failures_ = 0; }
  unsigned poll_failures() const { return failures_; }

  /// The TID of the next trap this SM sends (1, 2, ...).
  std::uint32_t next_trap_tid() { return ++trap_tid_; }
  /// A trap 144 went to the SM of port GUID `master`: true when it is the first to it since another SM was
  /// nudged (worth an info line), false for a repeat.
  bool note_nudge(Guid master);

 private:
  EventTimer poll_timer_;  ///< kPollDue
  KnownSms known_;
  GateVerdict gate_ = GateVerdict::kConfigure;
  WatchedSm watched_;
  bool awaiting_ = false;
  unsigned failures_ = 0;      ///< polls in a row that failed
  std::uint32_t trap_tid_ = 0;
  Guid nudged_ = 0;            ///< the last master nudged
};

}  // namespace smd
