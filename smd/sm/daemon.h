// Daemon: smd as a long-running subnet manager. One io_context runs the SM state machine (IBA 14.4.1:
// DISCOVERING -> MASTER or STANDBY), heavy sweeps (at start, on trap 128/144, on request, on SIGHUP,
// and when a light sweep sees PortStateChange), light sweeps every sm.sweep_interval, a standby's polling
// of the master, and the answers to other SMs' SMInfo requests.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>
#include <span>
#include <string>

#include "config/policy.h"
#include "mad/codec/dr_path.h"
#include "mad/codec/sm_info.h"
#include "mad/transport/umad_transport.h"
#include "smd/control/control_server.h"
#include "smd/control/metrics_server.h"
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
  void request_heavy_sweep(const std::string& reason) override;
  void request_reroute(const std::string& reason) override;

 private:
  using Clock = std::chrono::steady_clock;

  /// kFailed only re-reads what the last sweep missed; any kFull request pending makes the sweep full.
  void schedule_heavy_sweep(std::chrono::milliseconds delay, const std::string& reason,
                            SweepScope scope = SweepScope::kFull);
  void run_heavy_sweep();
  void arm_light_sweep();
  void run_light_sweep();
  void arm_master_poll();
  void poll_master();
  bool election_gate(const ObservedFabric& d);
  void become(mad::SmState state, const std::string& why);

  void on_unsolicited(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);
  void answer_sminfo(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);
  void repress_trap(std::span<const std::uint8_t, mad::kMadSize> mad, const mad::UnsolicitedInfo& info);
  void on_signal(int signo);
  void reload_policy();
  void start_management();
  void arm_watchdog();
  void publish(const SweepSummary* summary);
  bool hand_over(const mad::DrPath& path, const mad::SmInfo& to);
  /// Our SMInfo as sent to other SMs; `sm_key` is ours in our own requests, and in a GetResp only
  /// to a requester that proved it (sm_key_in_response).
  mad::SmInfo own_sminfo(std::uint64_t sm_key) const;

  boost::asio::io_context io_;
  Policy policy_;
  std::string config_path_;
  std::unique_ptr<mad::UmadTransport> transport_;
  std::unique_ptr<SweepRunner> runner_;
  std::unique_ptr<ControlServer> control_;
  std::unique_ptr<MetricsServer> metrics_;
  boost::asio::steady_timer sweep_timer_;
  boost::asio::steady_timer light_timer_;
  boost::asio::steady_timer poll_timer_;
  boost::asio::steady_timer watchdog_timer_;
  boost::asio::signal_set signals_;

  bool sweeping_ = false;
  bool sweep_scheduled_ = false;
  bool stopping_ = false;
  std::string pending_reason_;
  bool pending_full_ = false;           ///< a full heavy sweep was asked for (request, start-up, light sweep, ...)
  std::vector<Lid> pending_trap_lids_;  ///< issuers of the link-change traps since the last sweep began
  unsigned failed_in_row_ = 0;          ///< heavy sweeps in a row that did not bring the subnet up
  Clock::time_point change_seen_{};     ///< first trap/change not yet repaired (for last_repair_ms)

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
