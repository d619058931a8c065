// DaemonControl: what the control socket may ask of the daemon, as an interface the daemon implements,
// so smd/control never includes the SM state machine.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "routing/base/status.h"
#include "smd/protocol/control_protocol.h"
#include "smd/state/fabric_snapshot.h"

namespace smd {

/// What `smctl perfmgr` asks of the Performance Manager.
enum class PerfMgrRequest : std::uint8_t {
  kPass,   ///< run one counter pass now
  kClear,  ///< zero the stored totals and rates (OpenSM's console `perfmgr clear_counters`)
};

/// What the control socket may ask of the daemon. Implemented by the daemon; every call is made on the
/// daemon's io_context thread.
class DaemonControl {
 public:
  virtual ~DaemonControl() = default;
  /// The latest published snapshot (never null once the daemon runs).
  virtual std::shared_ptr<const FabricSnapshot> snapshot() const = 0;
  /// Ask for a heavy sweep as soon as possible (coalesced with one already pending).
  virtual void request_heavy_sweep(const std::string& reason) = 0;
  /// Recompute routes on the current topology and program the difference.
  virtual void request_reroute(const std::string& reason) = 0;
  /// Drop the unhealthy mark of `port` (`smctl port clear`), applied between sweeps; `reason` names who
  /// asked. Queued even when the port is not marked (the answer reads the snapshot).
  virtual void request_port_clear(PortKey port, const std::string& reason) = 0;
  /// `smctl sweep --light`: one light sweep between sweeps (MASTER only; other states sweep nothing).
  virtual void request_light_sweep(const std::string& reason) = 0;
  /// `smctl sweeps off|on`: `on` false holds back periodic light sweeps and trap-driven heavy sweeps (the
  /// events are counted and logged) until `on` true, which runs one heavy sweep if any was held back.
  /// Applied between sweeps; `reason` and `requester` are shown by status.
  virtual void request_sweeping(bool on, const std::string& reason, const std::string& requester) = 0;
  /// `smctl log-level`: the running log level, at once (`level` is one of config's log_level_names(): the
  /// caller checks it). It lasts until the next accepted policy reload, which sets log.level again.
  virtual void set_log_level(const std::string& level, const std::string& requester) = 0;
  /// `smctl perfmgr pass|clear`, handed to the PerfMgr's thread at once. Errors: kInvalidInput when no
  /// PerfMgr runs (perfmgr.enabled false, or this SM is not MASTER).
  virtual Status request_perfmgr(PerfMgrRequest what, const std::string& requester) = 0;
  /// `smctl drain PART... [--force]`: record the parts (smd/sm/drain_book.h) and ask for the heavy sweep
  /// that routes around them. {drained: [...], already: [...], separated?, cables?}. Errors (nothing
  /// recorded): kInvalidInput for a bad name, a drain that would cut CA pairs off without `force`, or no
  /// fabric yet; kIo when state_dir/drained is not written.
  virtual Result<control::Json> request_drain(const std::vector<std::string>& parts, bool force,
                                              const std::string& requester) = 0;
  /// `smctl undrain PART...|--all`: remove drains and ask for the sweep that routes back over them.
  /// {undrained: [...]}. Errors (nothing removed): as DrainBook::undrain.
  virtual Result<control::Json> request_undrain(const std::vector<std::string>& parts, bool all,
                                                const std::string& requester) = 0;
  /// `smctl what-if drain PART...`: the what-if (routing/whatif/drain_plan.h) on the fabric, LIDs and tables
  /// of the last programming sweep, with the policy's chain, options and partitions, computed off the
  /// daemon's thread; nothing is sent to the fabric. `done` is called once, on the daemon's thread, with
  /// {report: the JSON of `smd plan --drain --format json`, text: its text}. Errors: kInvalidInput for a bad
  /// name, kDeclined on a standby or with no programmed fabric yet, kTimeout (ask again later) while another
  /// what-if runs; the what-if's own.
  virtual void what_if_drain(const std::vector<std::string>& parts,
                             std::function<void(Result<control::Json>)> done) = 0;
};

}  // namespace smd
