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
//   daemon.cpp          lifecycle: open the port, start the control socket and metrics (ManagementEndpoints,
//                       management_endpoints.h), the loop, stop
//   daemon_events.cpp   the table's executor: post to and apply the EventQueue (event_queue.h), enter a state,
//                       perform an action
//   daemon_sweeps.cpp   heavy and light sweeps, asking the SweepScheduler (sweep_scheduler.h) when they run
//   daemon_sminfo.cpp   the SMInfo agent: answers to other SMs' Gets and Sets (control packets)
//   daemon_election.cpp the election gate after discovery, handover, the other SMs in light sweeps (what is
//                       known of them: KnownSms, known_sms.h)
//   daemon_poll.cpp     polling the watched SM (STANDBY: the master; MASTER: a lower master) and nudging it;
//                       what polling keeps is the ElectionAgent (election_agent.h), our SMInfo LocalSm
//                       (local_sm.h)
//   daemon_is_sm.cpp    our own port's IsSM capability: checked, and restored when it is missing
//   daemon_traps.cpp    unsolicited MADs: traps (TrapRepress, classify_trap, an event) and the SMInfo dispatch
//   daemon_policy.cpp   signals (caught by Supervision, supervision.h, with systemd's watchdog): SIGHUP reads
//                       and queues a policy, which a sweep's start adopts whole
//                       (the generations and refusals: PolicyReloads, policy_reloads.h)
//   daemon_publish.cpp  the frozen FabricSnapshot (kept with the counters in SweepRecord, sweep_record.h); the
//                       SA's input (smd/sa/sa_publisher.h)
//   daemon_health.cpp   the health monitor's calls (smd/perfmgr/health_monitor.h: the PerfMgr thread, link
//                       flaps, unhealthy marks, babbling ports) and what it asks of the SM
//   daemon_runtime.cpp  the operator's runtime controls: sweeps off/on, a light sweep on request, the log
//                       level, PerfMgr pass and clear, reopening the log file (SIGUSR1); their state is
//                       RuntimeControls (runtime_controls.h)
#pragma once

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "config/policy.h"
#include "mad/codec/dr_path.h"
#include "mad/codec/sm_info.h"
#include "mad/transport/umad_transport.h"
#include "smd/control/control_server.h"
#include "smd/control/metrics_server.h"
#include "smd/cc/cc_agent.h"
#include "smd/perfmgr/health_monitor.h"
#include "smd/sa/sa_agent.h"
#include "smd/sa/sa_publisher.h"
#include "smd/sm/daemon_event.h"
#include "smd/sm/drain_book.h"
#include "smd/sm/event_timer.h"
#include "smd/sm/election_agent.h"
#include "smd/sm/event_queue.h"
#include "smd/sm/known_sms.h"
#include "smd/sm/local_sm.h"
#include "smd/sm/management_endpoints.h"
#include "smd/sm/mcast_mailbox.h"
#include "smd/sm/pending_sweep.h"
#include "smd/sm/policy_reloads.h"
#include "smd/sm/runtime_controls.h"
#include "smd/sm/sm_election.h"
#include "smd/sm/sm_fsm.h"
#include "smd/sm/sminfo_access.h"
#include "smd/sm/supervision.h"
#include "smd/sm/sweep_record.h"
#include "smd/sm/sweep_scheduler.h"
#include "smd/sm/what_if_worker.h"
#include "smd/state/fabric_snapshot.h"
#include "smd/sweep/sweep_runner.h"

namespace smd {

class Daemon final : public DaemonControl, private HealthHost {
 public:
  /// `config_path` is re-read on SIGHUP ("" = defaults only, nothing to reload).
  Daemon(Policy policy, std::string config_path);
  ~Daemon() override;

  /// Open the SM port and run until SIGTERM/SIGINT. Returns the process exit code (0 clean stop,
  /// 2 the SM port could not be opened).
  int run();

  /// The published snapshot, with the SA's counters as of now (they move between sweeps).
  std::shared_ptr<const FabricSnapshot> snapshot() const override;
  /// Queue kSweepRequested (applied between sweeps, coalesced with a sweep already pending).
  void request_heavy_sweep(const std::string& reason) override;
  /// Queue kRerouteRequested: the next heavy sweep programs a fresh engine run.
  void request_reroute(const std::string& reason) override;
  /// Queue kPortClearRequested for `port`.
  void request_port_clear(PortKey port, const std::string& reason) override;
  /// Queue kLightSweepRequested.
  void request_light_sweep(const std::string& reason) override;
  /// Queue kSweepingChanged.
  void request_sweeping(bool on, const std::string& reason, const std::string& requester) override;
  /// Set spdlog's level now (it changes no SM state, so it need not wait for a sweep to end).
  void set_log_level(const std::string& level, const std::string& requester) override;
  /// Hand the request to the PerfMgr thread now (PerfAgent is thread-safe and holds off while a sweep runs).
  Status request_perfmgr(PerfMgrRequest what, const std::string& requester) override;
  /// Record the drains in drains_ (refused as DrainBook::drain says) and queue the heavy sweep that routes
  /// around them; the snapshot lists them at once.
  Result<control::Json> request_drain(const std::vector<std::string>& parts, bool force,
                                      const std::string& requester) override;
  /// Remove drains from drains_ and queue the heavy sweep that routes over them again.
  Result<control::Json> request_undrain(const std::vector<std::string>& parts, bool all,
                                        const std::string& requester) override;
  /// The what-if on what_if_'s thread (MASTER with programmed tables only); `done` on this thread.
  void what_if_drain(const std::vector<std::string>& parts, std::function<void(Result<control::Json>)> done) override;
  /// What SIGUSR1 runs to reopen the log file (logrotate); set by main() before run(). Its error is logged.
  void set_log_reopen(std::function<Status()> reopen) { runtime_.set_log_reopen(std::move(reopen)); }

 private:
  using Clock = std::chrono::steady_clock;

  // --- daemon.cpp: lifecycle ---
  /// The SA thread (sa.enabled) and the sink through which the transport hands it SA MADs (empty without).
  mad::GmpSink start_sa_agent();
  /// The PerfMgr and CC manager, and the transport on `port` with their sinks; the runner on it.
  void open_transport(std::unique_ptr<mad::MadChannel> port, mad::GmpSink sa_sink);
  /// Apply queued events between handlers until a stop is applied.
  void run_loop();
  /// Stop the endpoints, timers, threads and the transport, in the order their users need.
  void shut_down();

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

  // --- daemon_mcast.cpp: multicast trees between sweeps (the hand-over is mcast_'s) ---
  /// The SA thread's McastSink: deposit the groups, queue kGroupsChanged on the SM's thread.
  void on_groups_changed(std::vector<sa::McastGroupMembers> groups);
  /// Hand the mailbox's groups (when new) to the runner.
  void take_mcast_mailbox();
  /// kRunMcastPass: rebuild and program the changed groups' trees.
  void run_mcast_pass(const DaemonEvent& event);

  // --- daemon_sminfo.cpp: the SMInfo agent ---
  /// Answer another SM's SMInfo Get or Set (IBA 14.4.1; rules in smd/sm/sminfo_access.h). An obeyed Set
  /// becomes an event; a trusted Get from an SM that outranks us may too.
  void answer_sminfo(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);
  /// Our SMInfo as sent to other SMs, with `sm_key` in its SM_Key field.
  mad::SmInfo own_sminfo(std::uint64_t sm_key) const;
  /// The M_Key protection of our own port (what smd gives every endport).
  OwnPortKey own_port_key() const;
  /// The M_Key the port `port_guid` holds under our policy: security.m_key, or with m_key_per_port the key
  /// derived for that port (smd/program/port_m_key.h). SMInfo to another SM's port carries it.
  std::uint64_t m_key_of_port(Guid port_guid) const;
  /// How to reach the SM of port GUID `guid`: the last fabric's directed route to it, else LID `lid`.
  std::optional<WatchedSm> reach_sm(Guid guid, Lid lid) const;

  // --- daemon_election.cpp: the election (IBA 14.4.1.1) ---
  /// The heavy sweep's gate: read every other SM's SMInfo, decide (decide_election), act. Runs inside the
  /// sweep: it never changes state_; a stop is applied as the sweep's outcome (kSweepFoundMaster,
  /// kSweepAwaitsHandover).
  SweepRunner::GateVerdict election_gate(const ObservedFabric& d);
  /// The gate's first step: SMInfo of every other port that says IsSM or whose SM reached us, read at once;
  /// the ports that answered with their own GUID.
  std::vector<WatchedSm> read_peer_sminfo(const ObservedFabric& d);
  /// The gate's second step: the answers whose SM_Key we trust become the known SMs (changes logged); their
  /// SMInfo in the same order.
  std::vector<mad::SmInfo> admit_peers(const SmSelf& self, const std::vector<WatchedSm>& answered);
  /// The gate's last step: act on the decision about the known SM decision.peer (follow, hand over, yield,
  /// wait) and say whether this sweep goes on.
  SweepRunner::GateVerdict act_on_election(const ElectionDecision& decision);
  /// SubnSet(SMInfo) HANDOVER to `to` (a STANDBY or MASTER that outranks us). True when it answered with
  /// status 0 (OpenSM answers in the state it had before the Set: STANDBY; smd answers MASTER).
  bool hand_over(const WatchedSm& to, const mad::SmInfo& info);
  /// Light sweep: read the SMInfo of every SM known from the last gate; true (with a reason) when one of
  /// them needs a heavy sweep: another MASTER, or a STANDBY that outranks us.
  bool other_sms_need_sweep(std::string& reason);
  /// A poll of the watched SM answered: its entry among the known SMs (what `smctl status` lists) and the
  /// count of masters follow it, so a standby's view does not stay at its last election's.
  void note_polled_peer(const mad::SmInfo& answer);

  // --- daemon_poll.cpp: the SM this one polls ---
  /// Poll the watched SM after `delay` (sm.poll_interval when nullopt).
  void arm_poll(std::optional<std::chrono::milliseconds> delay = std::nullopt);
  void cancel_poll();
  void poll_watched(const DaemonEvent& event);
  /// kAwaitHandover: start polling the lower master the gate found, at once.
  void await_handover();
  /// Stop waiting for a lower master (it handed over, went away, or a sweep configured without it).
  void stop_awaiting(const std::string& why);
  /// kNudgeMaster: trap 144 (SM priority change, as OpenSM sends it) to the watched SM's LID.
  void nudge_watched();

  // --- daemon_is_sm.cpp: our own port's IsSM ---
  /// Read our port's PortInfo (or use `seen`, read by discovery) and, when IsSM is missing, reopen the issm
  /// device and read it again. Logs what it finds. True when IsSM was missing and is back.
  bool ensure_is_sm(const char* when, const mad::PortInfo* seen = nullptr);

  // --- daemon_traps.cpp: unsolicited MADs ---
  void on_unsolicited(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);
  void repress_trap(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);

  // --- daemon_policy.cpp: signals and policy reloads ---
  /// A signal Supervision caught: stop, reload the policy (SIGHUP) or reopen the log (SIGUSR1); false once
  /// stopping (no further signal is waited for).
  bool on_signal(int signo);
  /// Read and validate the policy file (nullptr, logged, when there is none or it is refused).
  std::shared_ptr<const ReloadedPolicy> read_reloaded_policy();
  /// The staged policy takes effect, whole: the daemon's and the runner's. No-op when none is staged.
  void adopt_staged_policy();

  // --- daemon_health.cpp: the health monitor's calls and what it asks of the SM (HealthHost) ---
  /// Run the PerfMgr thread exactly when this SM is MASTER, perfmgr.enabled is set and a sweep gave it ports.
  void update_perfmgr();
  /// After a configuring sweep: flaps, quiet marks, kept cables, babbling links, the PerfMgr's ports.
  void health_after_sweep(const SweepSummary& s);
  /// The congestion-control manager after a configuring sweep (daemon_cc.cpp): as MASTER with
  /// congestion_control.enabled and the subnet up, hand it the sweep's switches and CA ports; else stop it.
  void cc_after_sweep(const SweepSummary& s);
  /// A policy took effect: thresholds, the babbling rule and the PerfMgr's settings.
  void health_policy_changed();
  /// MASTER, not stopping, with a transport: what the PerfMgr needs besides its policy and a fabric.
  bool perfmgr_may_run() const;
  std::shared_ptr<const Topology> topology() const override;
  const LidMap& lids() const override;
  std::shared_ptr<const Topology> routed_topology() const override;
  const std::vector<PortKey>& isolation_requests() const override;
  void set_isolation_requests(std::vector<PortKey> ports) override;
  std::vector<IsolationResult> isolation() const override;
  void set_phys_state_requests(std::vector<PortKey> disable, std::vector<PortKey> enable) override;
  std::pair<std::vector<PortKey>, std::vector<PortKey>> phys_state_done() const override;
  Result<PortKey> link_end_to_disable(const PortKey& babbler) const override;
  void request_sweep(const std::string& why) override;
  void publish_marks() override;
  void counters_read() override;

  // --- daemon_runtime.cpp: the operator's runtime controls ---
  /// kSetSweeping: sweeps off (record who and why, stop light sweeps) or on (one heavy sweep if any was held).
  void set_sweeping(const DaemonEvent& event);
  /// While sweeps are off: true, and the heavy sweep `why` would have asked for is counted as held back.
  bool hold_back_sweep(const std::string& why);
  /// The running level becomes `level` (logged with `why`).
  void apply_log_level(const std::string& level, const std::string& why);
  /// SIGUSR1: reopen the log file through reopen_log_.
  void reopen_log();

  // --- daemon_drain.cpp ---
  /// Read state_dir/drained into drains_ (at start-up; its problems logged).
  void load_drains();

  // --- daemon_publish.cpp ---
  void publish(const SweepSummary* summary);
  /// The SA's snapshot (sa_publisher_) handed to the SA thread.
  void publish_sa();
  /// What sa_publisher_ reads: runner_'s last fabric, this SM and the SMs it knows, the policy.
  sa::SaPublishInput sa_input() const;

  boost::asio::io_context io_;
  Policy policy_;
  std::unique_ptr<sa::SaAgent> sa_;  ///< the SA thread (null with sa.enabled false); stopped before transport_
  std::unique_ptr<mad::UmadTransport> transport_;
  std::unique_ptr<SweepRunner> runner_;
  ManagementEndpoints endpoints_;  ///< the control socket and the Prometheus endpoint
  EventQueue events_;              ///< what handlers posted, applied by the loop; stopping and the exit code
  SweepScheduler sweeps_;          ///< heavy-sweep requests and timer, the light timer, the repair clock
  ElectionAgent election_;         ///< the gate's verdict, the other SMs, the watched SM and its polls
  McastMailbox mcast_;             ///< the SA's groups handed to this thread; kMcastDue
  sa::SaPublisher sa_publisher_;   ///< the SA's snapshot, the serving rule, the fabric views
  Supervision supervision_;  ///< the signals and systemd's watchdog
  PolicyReloads reloads_;  ///< the file SIGHUP reads, the generation in effect, a staged reload, refusals
  LocalSm local_;          ///< our port's identity, SMState and ActCount (what our SMInfo says)

  // Fabric health: the PerfMgr thread, unhealthy and babbling ports. The CC manager (smd/cc) runs only when enabled.
  HealthMonitor health_{policy_, *this, [this](std::span<const std::uint8_t> mad, const mad::MadAddress& to) {
                          return transport_->send_gmp(mad, to);
                        }};
  std::unique_ptr<CcAgent> cc_;

  RuntimeControls runtime_;  ///< sweeps off, the log level's name, SIGUSR1 (smd/sm/runtime_controls.h)
  SweepRecord record_;       ///< the counters, the last sweep's summary, the published snapshot
  DrainBook drains_{policy_.sm.state_dir.empty() ? std::string() : policy_.sm.state_dir + "/" + std::string(kDrainFileName)};
  WhatIfWorker what_if_{io_};  ///< last: its destructor waits for a running what-if while the rest exists
};

}  // namespace smd
