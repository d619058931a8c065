// Daemon: smd as a long-running subnet manager. One io_context runs everything; the SM state machine
// (IBA 14.4.1: NOTACTIVE, DISCOVERING, STANDBY, MASTER) is the table of smd/sm/sm_fsm.h.
//
// Events between sweeps: a heavy or light sweep re-enters the io_context at every SmpBatch::wait(), so a
// signal, an SMInfo Set, a trap, a control request or a timer can run in the middle of one. Every such
// handler only records a DaemonEvent (smd/sm/daemon_event.h) in `events_`; the loop in run() applies the
// queue, in arrival order, after each handler that ran outside a sweep. A sweep is itself an action of
// the table, so nothing it reads (the state, the policy, a reroute flag) changes between two of its
// phases. Only immediate replies that change nothing stay in the handlers: the SMInfo GetResp, TrapRepress,
// the control socket's reads of the frozen snapshot, and the systemd watchdog.
//
// The files, one purpose each:
//   daemon.cpp          lifecycle: open the port, start the control socket and metrics, the loop, stop
//   daemon_events.cpp   the queue and the table's executor: post, apply, enter a state, perform an action
//   daemon_sweeps.cpp   heavy-sweep scheduling (coalesced requests, one timer), heavy and light sweeps
//   daemon_sminfo.cpp   the SMInfo agent: answers, the election gate, handover, polling the master
//   daemon_traps.cpp    unsolicited MADs: traps (TrapRepress, then an event) and the SMInfo dispatch
//   daemon_policy.cpp   signals: SIGHUP reads and queues a policy, which a sweep's start adopts whole
//   daemon_publish.cpp  the frozen FabricSnapshot and the counters
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "config/policy.h"
#include "mad/codec/dr_path.h"
#include "mad/codec/sm_info.h"
#include "mad/transport/umad_transport.h"
#include "smd/control/control_server.h"
#include "smd/control/metrics_server.h"
#include "smd/sm/daemon_event.h"
#include "smd/sm/event_timer.h"
#include "smd/sm/pending_sweep.h"
#include "smd/sm/sm_fsm.h"
#include "smd/state/fabric_snapshot.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

class Daemon final : public DaemonControl {
 public:
  /// `config_path` is re-read on SIGHUP ("" = defaults only, nothing to reload).
  Daemon(Policy policy, std::string config_path);
  ~Daemon() override;

  /// Open the SM port and run until SIGTERM/SIGINT. Returns the process exit code (0 clean stop,
  /// 2 the SM port could not be opened).
  int run();

  std::shared_ptr<const FabricSnapshot> snapshot() const override { return snapshot_; }
  /// Queue kSweepRequested (applied between sweeps, coalesced with a sweep already pending).
  void request_heavy_sweep(const std::string& reason) override;
  /// Queue kRerouteRequested: the next heavy sweep programs a fresh engine run.
  void request_reroute(const std::string& reason) override;

 private:
  using Clock = std::chrono::steady_clock;

  // --- daemon.cpp: lifecycle ---
  void start_management();
  void arm_watchdog();

  // --- daemon_events.cpp: the queue and the table's executor ---
  /// Record an event (every handler's only way to change anything). Never runs it.
  void post(DaemonEvent event);
  void post(SmEvent kind, std::string why);
  /// Apply queued events in order until the queue is empty (or the daemon stops). Called by the loop only.
  void apply_events();
  /// Look the event up in the table, enter the next state, perform the action.
  void dispatch(const DaemonEvent& event);
  /// Enter `next` (logged with `why`): start or stop what that state runs, publish.
  void enter_state(mad::SmState next, const std::string& why);
  void perform(SmAction action, const DaemonEvent& event);
  /// The state once every queued event is applied (what an SMInfo answer reports).
  mad::SmState projected_state() const;

  // --- daemon_sweeps.cpp: scheduling and running sweeps ---
  /// Record a heavy-sweep request and make the sweep timer fire by `due`: a sweep already due sooner
  /// covers it; one due later is brought forward. Ignored when stopping, STANDBY or NOTACTIVE.
  void schedule_heavy_sweep(Clock::time_point due, const std::string& reason, SweepScope scope = SweepScope::kFull,
                            Lid trap_lid = 0);
  /// Forget pending requests and disarm the sweep timer (entering STANDBY or NOTACTIVE).
  void cancel_heavy_sweeps();
  /// kRequestSweep / kRequestReroute: the request each event makes (scope, debounce, trap issuer).
  void request_sweep_for(const DaemonEvent& event);
  /// kRunHeavySweep: adopt a staged policy, run the pending sweep, dispatch its outcome at once.
  void run_heavy_sweep(const DaemonEvent& event);
  /// kConfigured: after a sweep that configured the fabric.
  void after_configuring_sweep(const SweepSummary& s);
  /// kFollowMaster: after a sweep the election gate stopped.
  void after_gate_stopped_sweep(const SweepSummary& s);
  void arm_light_sweep();
  void cancel_light_sweep();
  void run_light_sweep(const DaemonEvent& event);

  // --- daemon_sminfo.cpp: the SMInfo agent ---
  bool election_gate(const ObservedFabric& d);
  /// The election gate's verdict, during a sweep: this SM is to go `state` (STANDBY) for `why`; the state
  /// machine enters it when the sweep has stopped (kSweepFoundMaster). Never changes state_ itself.
  void become(mad::SmState state, const std::string& why);
  bool hand_over(const mad::DrPath& path, const mad::SmInfo& to);
  void answer_sminfo(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);
  void arm_master_poll();
  void cancel_master_poll();
  void poll_master(const DaemonEvent& event);
  /// Our SMInfo as sent to other SMs; `sm_key` is ours in our own requests, and in a GetResp only
  /// to a requester that proved it (sm_key_in_response).
  mad::SmInfo own_sminfo(std::uint64_t sm_key) const;

  // --- daemon_traps.cpp: unsolicited MADs ---
  void on_unsolicited(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);
  void repress_trap(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);

  // --- daemon_policy.cpp: signals and policy reloads ---
  void arm_signals();
  void on_signal(int signo);
  /// Read and validate the policy file (nullptr, logged, when there is none or it is refused).
  std::shared_ptr<const ReloadedPolicy> read_reloaded_policy();
  /// The staged policy takes effect, whole: the daemon's and the runner's. No-op when none is staged.
  void adopt_staged_policy();

  // --- daemon_publish.cpp ---
  void publish(const SweepSummary* summary);
  void count_sweep(const SweepSummary& s);

  boost::asio::io_context io_;
  Policy policy_;
  std::string config_path_;
  std::unique_ptr<mad::UmadTransport> transport_;
  std::unique_ptr<SweepRunner> runner_;
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<MetricsServer> metrics_;
  EventTimer sweep_timer_;  ///< kHeavySweepDue
  EventTimer light_timer_;  ///< kLightSweepDue
  EventTimer poll_timer_;   ///< kPollDue
  boost::asio::steady_timer watchdog_timer_;
  boost::asio::signal_set signals_;

  // The event queue.
  std::deque<DaemonEvent> events_;
  bool applying_ = false;  ///< apply_events() is on the stack (it never nests)
  bool stopping_ = false;

  // Heavy-sweep scheduling. Each arming of a timer gets a generation; a firing of an older one is stale.
  PendingSweep pending_;
  bool sweep_armed_ = false;         ///< the sweep timer waits
  bool sweep_due_ = false;           ///< it fired; its kHeavySweepDue is queued (and takes every request until it runs)
  std::uint64_t sweep_seq_ = 0;      ///< heavy sweeps started (their number in the log)
  std::uint64_t sweep_running_ = 0;  ///< the number of the heavy sweep in progress, 0 = none
  std::string gate_why_;             ///< the election gate stopped this sweep: why (become())
  unsigned failed_in_row_ = 0;       ///< heavy sweeps in a row that did not bring the subnet up
  Clock::time_point change_seen_{};  ///< first trap/change not yet repaired (for last_repair_ms)

  // The policy in effect, and one read by SIGHUP that waits for the next heavy sweep.
  std::uint64_t policy_generation_ = 1;
  std::uint64_t last_generation_ = 1;  ///< the newest generation read (staged or in effect)
  std::vector<RestartNeeded> needs_restart_;
  std::shared_ptr<const ReloadedPolicy> staged_;

  mad::SmState state_ = mad::SmState::kDiscovering;
  std::uint32_t act_count_ = 0;
  Guid own_guid_ = 0;
  Lid own_lid_ = 0;
  mad::DrPath master_path_;  ///< STANDBY: where the master's SM port is
  Guid master_guid_ = 0;
  unsigned poll_failures_ = 0;

  DaemonCounters counters_;
  SweepSummary last_summary_;
  std::chrono::system_clock::time_point last_sweep_time_{};
  double last_repair_ms_ = 0;
  std::shared_ptr<const FabricSnapshot> snapshot_;
};

}  // namespace smd
