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
#include "mad/transport/m_key_transport.h"
#include "mad/transport/transport.h"
#include "routing/lids/lid_assign.h"
#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "smd/program/lft_programmer.h"
#include "smd/state/roce_state_writer.h"
#include "smd/state/sweep_summary.h"
#include "smd/sweep/discovery.h"

namespace smd {

/// What a heavy sweep reads.
enum class SweepScope : std::uint8_t {
  kFull,     ///< discover the whole fabric
  kFailed,   ///< re-sweep: read only what the last sweep could not, then write only what is missing
  kChanged,  ///< after traps: re-read only the switches that changed (incremental_discovery.h)
};

/// The SM's state that outlives one sweep: remembered LIDs and what each switch holds.
class SweepRunner {
 public:
  SweepRunner(boost::asio::io_context& io, mad::SmpTransport& transport, const Policy& policy);

  /// Decides after discovery whether this SM goes on to configure the fabric (false: another SM is
  /// master; the sweep stops with `SweepSummary::stopped_after_discovery`).
  using DiscoveryGate = std::function<bool(const Discovered&)>;

  /// Run one heavy sweep through every phase. Problems do not abort the sweep: the rest of the fabric
  /// is still configured, and the summary names what failed. With SweepScope::kFailed, discovery starts
  /// from the last sweep's results and reads only what it could not (a full sweep when there is no
  /// usable last sweep); later phases write only what is still missing, as always. Either way, what
  /// discovery could not read is asked for again up to sm.max_resweeps times before LIDs and routes.
  /// With SweepScope::kChanged, `changed_lids` are the LIDs that sent traps (the switches, or CAs, whose
  /// ports changed): only what changed is read again, and whatever the last sweep's fabric cannot explain
  /// falls back to a full discovery (SweepSummary::full_discovery_because).
  SweepSummary heavy_sweep(const DiscoveryGate& gate = {}, SweepScope scope = SweepScope::kFull,
                           const std::vector<Lid>& changed_lids = {});

  /// Light sweep over the switches of the last heavy sweep; true (with a reason) when a heavy one is due.
  bool light_sweep_finds_change(std::string& reason);

  /// The last discovered fabric and its LIDs and tables (null before the first sweep).
  std::shared_ptr<const Topology> topology() const { return topo_; }
  const LidMap& lids() const { return lids_; }
  const RoutingTables& tables() const { return tables_; }
  /// Frozen copies of the last sweep's LIDs and tables, for snapshots (null before the first sweep).
  std::shared_ptr<const LidMap> lids_snapshot() const { return lids_frozen_; }
  std::shared_ptr<const RoutingTables> tables_snapshot() const { return tables_frozen_; }

  /// Use a reloaded policy from the next sweep on (LIDs already granted stay); that sweep programs a
  /// fresh engine run rather than repairing the old tables.
  void set_policy(const Policy& policy);
  /// The next heavy sweep programs a fresh engine run (`smctl reroute`): re-balances after repairs.
  void request_full_reroute() { full_reroute_ = true; }

  /// Wait until the RoCE plan of the last routed sweep is in state_dir (policy roce.export / roce.frr);
  /// the report of that write, nullopt when none was asked for yet.
  std::optional<RoceWriteReport> wait_for_roce_files() { return roce_writer_.wait_idle(); }

 private:
  void remember_port_lids(const Topology& topo);
  /// Phase 1 of a kChanged sweep: the incremental discovery, or a full one when it cannot be done.
  Discovered rediscover(SmpBatch& batch, const std::vector<Lid>& changed_lids, SweepSummary& s);
  void write_ca_order(const Topology& topo);
  /// Routing phase, last step: the fresh engine run, or the minimal repair of the previous tables
  /// (routing.repair, routing/verify/repair.h) when the fabric only lost links or nodes.
  void choose_tables(const Topology& topo, RoutingTables fresh, SweepSummary& s);

  boost::asio::io_context& io_;
  mad::MKeyTransport transport_;  ///< every SMP of every sweep carries security.m_key
  Policy policy_;
  Guid2Lid remembered_;
  bool full_reroute_ = false;
  bool guid2lid_loaded_ = false;
  LftProgrammer programmer_;
  Discovered last_;  ///< the last configuring sweep's fabric, with the Sets since recorded (topo null: none)
  std::shared_ptr<const Topology> topo_;
  LidMap lids_;
  RoutingTables tables_;
  std::shared_ptr<const LidMap> lids_frozen_;
  std::shared_ptr<const RoutingTables> tables_frozen_;
  RoceStateWriter roce_writer_;  // last: its destructor finishes the write while the rest still exists
};

}  // namespace smd
