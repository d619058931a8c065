// HealthMonitor: the fabric's health as the SM acts on it. It owns the PerfMgr thread (PerfAgent: run
// exactly while this SM is MASTER with perfmgr.enabled and a fabric), the health rules' marks
// (port_health.h: error counters over thresholds, link flaps read from consecutive sweeps, quiet-period
// expiry, the operator's clear), the cables routing goes around (decided per sweep by routing/isolation,
// never cutting a node off), and health.babbling_port (OpenSM's babbling_port_policy, babbling_ports.h): a
// port past the trap rate has the nearer end of its link disabled by the next master sweep; it is enabled
// again when the operator clears the port (either end) or a reload turns the rule off.
//
// Threads: the PerfMgr thread hands each pass over through a mailbox (guarded) and HealthHost::counters_read;
// everything else runs on the SM's thread, between sweeps.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "config/policy.h"
#include "routing/base/status.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "smd/perfmgr/babbling_ports.h"
#include "smd/perfmgr/perf_agent.h"
#include "smd/perfmgr/port_health.h"
#include "smd/state/port_counters_view.h"

namespace smd {

/// What the last routing phase decided for one isolation request (SweepRunner::isolation()).
struct IsolationResult {
  PortKey port;
  PortKey peer;  ///< node GUID 0 when the port is not cabled (or not in the fabric)
  bool isolated = false;
  std::string reason;  ///< why it stays in
};

/// What the monitor asks of the SM (the Daemon implements it over its SweepRunner). SM thread only, except
/// counters_read().
class HealthHost {
 public:
  virtual ~HealthHost() = default;
  /// The last sweep's fabric (null before the first) and its LIDs (valid while the topology is non-null).
  virtual std::shared_ptr<const Topology> topology() const = 0;
  virtual const LidMap& lids() const = 0;
  /// The topology the programmed tables were routed on (drained and isolated cables gone; null: none yet):
  /// the PerfMgr polls only what a LID route reaches on it. The default, topology(), drains nothing.
  virtual std::shared_ptr<const Topology> routed_topology() const { return topology(); }
  /// The cables the next sweeps route around (by port) and what the last routing made of them.
  virtual const std::vector<PortKey>& isolation_requests() const = 0;
  virtual void set_isolation_requests(std::vector<PortKey> ports) = 0;
  virtual std::vector<IsolationResult> isolation() const = 0;
  /// Link ends the next master sweeps disable and enable; what the last one did (disabled, enabled).
  virtual void set_phys_state_requests(std::vector<PortKey> disable, std::vector<PortKey> enable) = 0;
  virtual std::pair<std::vector<PortKey>, std::vector<PortKey>> phys_state_done() const = 0;
  /// The end of `babbler`'s link the SM disables (smd/program/port_disable.h); an error for the SM's own port.
  virtual Result<PortKey> link_end_to_disable(const PortKey& babbler) const = 0;
  /// A heavy sweep as soon as possible, for `why`.
  virtual void request_sweep(const std::string& why) = 0;
  /// The marks changed: publish the snapshot.
  virtual void publish_marks() = 0;
  /// The PerfMgr thread finished a pass (called on that thread): queue apply_passes() on the SM's thread.
  virtual void counters_read() = 0;
};

class HealthMonitor {
 public:
  /// `policy` is the SM's policy in effect (read at each call; it outlives the monitor). `send` sends the
  /// PerfMgr's MADs (thread-safe).
  HealthMonitor(const Policy& policy, HealthHost& host, PerfAgent::Sender send);

  /// The PerfMgr thread (for its PMA sink, `smctl perfmgr`, the snapshot's counters, sweeps' hold-off).
  PerfAgent& perf() { return *perf_; }
  const PerfAgent& perf() const { return *perf_; }

  /// Run the PerfMgr thread exactly when `master` (MASTER, not stopping), perfmgr.enabled and a fabric.
  void update_perfmgr(bool master);
  /// kApplyHealth: every pass handed over since the last call through the thresholds.
  void apply_passes();
  /// The operator's clear of `port` (`why` for the log): its mark, or the babbling port or link end.
  void clear_port(const PortKey& port, const std::string& why);
  /// After a configuring sweep: flaps (cables the last sweep that brought the subnet up had and this one,
  /// up too, lacks), quiet marks expired, warnings for cables kept in, the babbling links done, the
  /// PerfMgr's ports; `master` as for update_perfmgr.
  void after_sweep(bool subnet_up, bool master);
  /// Between sweeps: quiet marks expire even on a fabric where nothing moves.
  void tick();
  /// Policy generation `generation` took effect: thresholds, the babbling rule, the PerfMgr's settings.
  void policy_changed(std::uint64_t generation, bool master);
  /// Trap 129/130/131 naming LIDADDR `lid`, PORTNO `port`: counted; a port past the rate has its link
  /// disabled by the next sweep.
  void record_port_trap(std::uint16_t trap_number, Lid lid, PortNum port);

  /// The marks and babblers as smctl and metrics show them.
  std::vector<UnhealthyPortView> view() const;
  std::uint64_t unhealthy_marks_total() const { return unhealthy_marks_total_; }
  std::uint64_t babbling_ports_total() const { return babbling_ports_total_; }
  std::size_t links_disabled() const { return disabled_ends_.size(); }

  /// The PerfMgr's PassSink (its thread): keep the pass for apply_passes(), tell the host. At most 16
  /// passes wait; more are dropped (a pass that waited longer than the next one took is counted once).
  void on_counters_read(PerfPassDeltas deltas);

 private:
  void expire_quiet_marks(std::chrono::steady_clock::time_point now, std::string& why);
  void record_flaps(std::chrono::steady_clock::time_point now, std::string& why);
  void warn_kept_cables();
  void changed(const std::string& why);
  std::string describe_port(const PortKey& key) const;
  /// "0x0002c90300001234/5": a port in a sweep's reason.
  static std::string short_name(const PortKey& key);
  /// A steady-clock instant as wall-clock time (what smctl shows).
  static std::chrono::system_clock::time_point wall_time_of(std::chrono::steady_clock::time_point at);
  // health_babbling.cpp
  void update_phys_state_requests();
  void babbling_after_sweep();
  bool enable_babbler(const PortKey& port);
  void babbling_policy_changed();
  void add_babbler_views(std::vector<UnhealthyPortView>& out) const;

  const Policy& policy_;
  HealthHost& host_;
  std::unique_ptr<PerfAgent> perf_;
  PortHealth health_{HealthThresholds{}};
  std::mutex mailbox_mutex_;  ///< guards mailbox_: the PerfMgr thread fills it
  std::vector<PerfPassDeltas> mailbox_;
  /// Every cabled port -> its peer, as of the last sweep that brought the subnet up.
  std::map<PortKey, PortKey> last_cables_;
  std::map<PortKey, std::string> kept_warned_;  ///< ports whose cable stays in, with the reason last logged
  std::uint64_t unhealthy_marks_total_ = 0;
  BabblingPorts babbling_{BabblingRule{}};
  std::map<PortKey, PortKey> babbling_ends_;  ///< babbling port -> the link end disabled for it
  std::set<PortKey> disabled_ends_;           ///< ends whose SMA answered Disabled
  std::set<PortKey> enable_ends_;             ///< ends to enable again (operator clear, reload)
  std::uint64_t babbling_ports_total_ = 0;    ///< ports found babbling since the daemon started
};

}  // namespace smd
