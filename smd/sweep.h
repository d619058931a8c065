// One heavy sweep as a list of named phases, in the order OpenSM logs them:
// discovery -> LIDs assigned -> routing computed and verified -> endports configured ->
// switches configured (LFTs) -> links armed -> links active -> subnet up.
#pragma once

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/policy.h"
#include "mad/transport.h"
#include "routing/forwarding.h"
#include "routing/lid_assign.h"
#include "routing/lid_map.h"
#include "smd/discovery.h"
#include "smd/lft_programmer.h"
#include "smd/roce_state_writer.h"

namespace smd {

/// Wall time of one phase, in milliseconds.
struct PhaseTime {
  std::string phase;
  double ms = 0;
};

/// What one heavy sweep did and found: the summary `smd --once` prints.
struct SweepSummary {
  bool subnet_up = false;                ///< every LID set, every link Active, every table held
  bool stopped_after_discovery = false;  ///< the discovery gate said another SM is master
  std::size_t switches = 0, cas = 0, links = 0, lids = 0;
  std::string engine;                                      ///< routing engine that produced the tables
  std::vector<std::string> declined;                       ///< "ftree: not a fat tree" ...
  std::uint64_t smps_sent = 0, retries = 0, timeouts = 0;  ///< transport counters for this sweep
  unsigned lft_blocks_written = 0, lft_blocks_skipped = 0, port_sets = 0;
  std::vector<PhaseTime> phases;
  std::vector<std::string> problems;  ///< every failure with node GUID, DR path and attribute
  double total_ms = 0;
};

/// The SM's state that outlives one sweep: remembered LIDs and what each switch holds.
class SweepRunner {
 public:
  SweepRunner(boost::asio::io_context& io, mad::SmpTransport& transport, const Policy& policy);

  /// Decides after discovery whether this SM goes on to configure the fabric (false: another SM is
  /// master; the sweep stops with `SweepSummary::stopped_after_discovery`).
  using DiscoveryGate = std::function<bool(const Discovered&)>;

  /// Run one heavy sweep through every phase. Problems do not abort the sweep: the rest of the fabric
  /// is still configured, and the summary names what failed.
  SweepSummary heavy_sweep(const DiscoveryGate& gate = {});

  /// Light sweep over the switches of the last heavy sweep; true (with a reason) when a heavy one is due.
  bool light_sweep_finds_change(std::string& reason);

  /// The last discovered fabric and its LIDs and tables (null before the first sweep).
  std::shared_ptr<const Topology> topology() const { return topo_; }
  const LidMap& lids() const { return lids_; }
  const RoutingTables& tables() const { return tables_; }
  /// Frozen copies of the last sweep's LIDs and tables, for snapshots (null before the first sweep).
  std::shared_ptr<const LidMap> lids_snapshot() const { return lids_frozen_; }
  std::shared_ptr<const RoutingTables> tables_snapshot() const { return tables_frozen_; }

  /// Use a reloaded policy from the next sweep on (LIDs already granted stay).
  void set_policy(const Policy& policy) { policy_ = policy; }

  /// Wait until the RoCE plan of the last routed sweep is in state_dir (policy roce.export / roce.frr);
  /// the report of that write, nullopt when none was asked for yet.
  std::optional<RoceWriteReport> wait_for_roce_files() { return roce_writer_.wait_idle(); }

 private:
  void remember_port_lids(const Topology& topo);
  void write_ca_order(const Topology& topo);

  boost::asio::io_context& io_;
  mad::SmpTransport& transport_;
  Policy policy_;
  Guid2Lid remembered_;
  bool guid2lid_loaded_ = false;
  LftProgrammer programmer_;
  std::shared_ptr<const Topology> topo_;
  LidMap lids_;
  RoutingTables tables_;
  std::shared_ptr<const LidMap> lids_frozen_;
  std::shared_ptr<const RoutingTables> tables_frozen_;
  RoceStateWriter roce_writer_;  // last: its destructor finishes the write while the rest still exists
};

}  // namespace smd
