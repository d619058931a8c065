// FabricSnapshot: what the daemon publishes after every sweep, frozen. Readers (control socket,
// metrics, smctl) hold a std::shared_ptr<const FabricSnapshot> and need no lock; the daemon replaces the
// pointer on its io_context thread.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/topology.h"
#include "routing/mcast/mcast_tables.h"
#include "routing/partitions/partition_plan.h"
#include "routing/partitions/partition_spec.h"
#include "routing/qos/sl2vl_plan.h"
#include "smd/state/node_names.h"
#include "smd/state/port_counters_view.h"
#include "smd/state/port_fields_view.h"
#include "smd/state/port_link_view.h"
#include "smd/state/sa_stats.h"
#include "smd/state/sweep_summary.h"

namespace smd {

/// Counters since the daemon started (monotonic; Prometheus counters).
struct DaemonCounters {
  std::uint64_t heavy_sweeps = 0;
  std::uint64_t light_sweeps = 0;
  std::uint64_t failed_sweeps = 0;          ///< heavy sweeps that did not end SUBNET UP
  std::uint64_t incremental_sweeps = 0;     ///< heavy sweeps after link-change traps that re-read only what changed
  std::uint64_t incremental_fallbacks = 0;  ///< such sweeps that had to discover the whole fabric instead
  std::uint64_t traps_received = 0;
  std::uint64_t sminfo_sets_refused = 0;  ///< SMInfo Sets not obeyed (wrong SM_Key or no such transition)
  std::uint64_t elections = 0;            ///< election gates in which at least one other SM answered
  std::uint64_t handovers_sent = 0;       ///< HANDOVERs this SM sent that were answered (to a standby or master)
  std::uint64_t handovers_received = 0;   ///< HANDOVERs this SM obeyed
  std::uint64_t two_masters_found = 0;    ///< gates that found a lower MASTER while this SM was MASTER
  std::uint64_t nudges_sent = 0;          ///< traps 144 sent to a master of lower precedence
  std::uint64_t is_sm_restored = 0;       ///< times our port had lost IsSM and got it back
  std::uint64_t smps_sent = 0;
  std::uint64_t smp_retries = 0;
  std::uint64_t smp_timeouts = 0;
  std::uint64_t lft_blocks_written = 0;
  std::uint64_t pkey_blocks_written = 0;   ///< P_KeyTable block Sets, heavy sweeps
  std::uint64_t sl2vl_tables_written = 0;  ///< SLtoVLMappingTable Sets (one per (in, out) pair or port), heavy sweeps
  std::uint64_t vlarb_blocks_written = 0;  ///< VLArbitrationTable block Sets, heavy sweeps
  std::uint64_t mft_blocks_written = 0;    ///< MulticastForwardingTable (block, position) Sets, sweeps and passes
  std::uint64_t mcast_passes = 0;          ///< multicast passes between sweeps that rebuilt something
  std::uint64_t repairs = 0;               ///< heavy sweeps that made the fabric consistent after a change was seen
  double heavy_sweep_seconds_total = 0;
  double routing_seconds_total = 0;
  double repair_seconds_total = 0;  ///< change seen -> tables consistent, summed over `repairs`
};

/// A key of the reloaded policy file whose value differs from the running one but is read only at start-up
/// (the SM port, the control socket, ...): the running value stays until smd restarts (smd/sm/policy_reload.h).
struct RestartNeeded {
  std::string key;      ///< "control.socket"
  std::string running;  ///< the value in effect, as the policy file spells it
  std::string file;     ///< the value the file asks for

  friend bool operator==(const RestartNeeded&, const RestartNeeded&) = default;
};

/// One multicast group as smctl and the metrics show it: what the SA holds (MGID, MLID, members by
/// JoinState bit, IBA 15.2.5.17) and the tree the switches carry for it (routing/mcast/mcast_tables.h).
struct McastGroupView {
  std::array<std::uint8_t, 16> mgid{};
  Lid mlid = 0;
  unsigned members = 0;        ///< ports with any JoinState bit
  unsigned full = 0;           ///< with the FullMember bit (1)
  unsigned non_member = 0;     ///< with the NonMember bit (2)
  unsigned send_only = 0;      ///< with SendOnlyNonMember (4) or SendOnlyFullMember (8)
  Guid root = 0;               ///< the tree's root switch, 0 when the group has no tree (fewer than 2 ports)
  unsigned tree_switches = 0;  ///< switches holding the MLID
  bool programmed = false;     ///< the switches carry this group's current members (no rebuild pending)
};

/// Another SM as this one last read its SMInfo.
struct SmPeer {
  Guid guid = 0;
  unsigned priority = 0;
  std::string state;  ///< "MASTER", "STANDBY", ...
  Lid lid = 0;
};

/// Maintenance (`smctl sweeps off`): since when, who asked, why, and what was held back meanwhile.
/// One entry of the recent history (`smctl status` JSON, the fabric view's timeline): a heavy sweep or a
/// repair, as the daemon saw it end.
struct SweepHistoryEntry {
  std::chrono::system_clock::time_point at;  ///< when it ended (wall clock)
  /// "sweep" (the master configured, subnet up), "failed" (the master's sweep left problems), "discovery" (not
  /// master: the fabric read, nothing configured), "repair" (a change seen -> tables consistent again).
  std::string kind;
  double ms = 0;              ///< the sweep's total; a repair's change-to-consistent time
  std::size_t problems = 0;  ///< a sweep's problems
};

struct SweepsOffView {
  std::chrono::system_clock::time_point since{};
  std::string by;      ///< the requester ("uid 0 pid 4242")
  std::string reason;  ///< the operator's --reason
  std::uint64_t deferred = 0;  ///< heavy sweeps held back (traps, light-sweep changes, re-sweeps)
  std::string first_deferred;  ///< the first of them, as its sweep reason would have read
};

/// One of the operator's drains (`smctl drain`, state_dir/drained) as status and the metrics show it.
struct DrainedPartView {
  PortKey part;         ///< node GUID; port 0 = the whole switch, else one end of the cable
  std::string what;     ///< "switch 0x... (desc)" or "cable 0x... (desc) port N"
  bool forced = false;  ///< recorded with --force although it cut CA pairs off
};

struct FabricSnapshot {
  // SM identity and state (IBA 14.4.1 SMInfo).
  std::string sm_state = "DISCOVERING";  ///< DISCOVERING, STANDBY, MASTER, NOTACTIVE
  unsigned priority = 0;
  Guid sm_port_guid = 0;
  Lid sm_lid = 0;
  std::string instance;                          ///< `smd --instance NAME` ("" = the single SM)
  std::string log_level;                         ///< the running log level (log.level, `smctl log-level`)
  std::optional<SweepsOffView> sweeps_off;       ///< set while sweeps are off (`smctl sweeps off`)
  std::uint64_t subnet_prefix = 0xfe80000000000000ULL;  ///< sm.subnet_prefix this SM assigns
  Guid master_port_guid = 0;  ///< the master's port GUID (ours when MASTER)
  Lid master_lid = 0;
  /// SMs in MASTER state at this SM's last look (its election gate or light sweep), itself included: 1 is
  /// a healthy subnet; 2 while two masters resolve.
  unsigned masters_seen = 0;
  Guid awaiting_handover_from = 0;  ///< MASTER: the lower master it polls until it hands over, 0 = none
  std::vector<SmPeer> other_sms;    ///< the other trusted SMs of the last election, as last read

  // The fabric as of the last heavy sweep (null before the first one).
  std::shared_ptr<const Topology> topo;
  std::shared_ptr<const LidMap> lids;
  std::shared_ptr<const RoutingTables> tables;
  /// The SM-owned PortInfo fields and LifeTimeValue as the last configuring sweep knows them (null before it).
  std::shared_ptr<const PortFieldsView> port_fields;
  /// NodeInfo identities and every port's link (state, width, speed, MasterSMLID) as the same sweep knows
  /// them, for `smctl dump subnet` (null before it).
  std::shared_ptr<const PortLinkView> port_links;
  /// The SL2VL tables the last programming sweep wrote; null when it wrote none (qos.enabled false and no
  /// VL-layered engine), as OpenSM then writes no opensm-sl2vl.dump.
  std::shared_ptr<const Sl2VlPlan> sl2vl;
  /// The multicast trees the switches were programmed with (by GUID), for `smctl dump mcfdbs`.
  std::shared_ptr<const McastTables> mcast_tables;
  /// What operators see as each node's name (the policy's node-name map, else NodeDescription).
  NodeNames names;

  SweepSummary last_sweep;  ///< the last heavy sweep's summary
  std::chrono::system_clock::time_point last_sweep_time{};
  double last_repair_ms = 0;  ///< trap/port change -> tables consistent, last time it happened
  std::vector<SweepHistoryEntry> history;  ///< the last sweeps and repairs, oldest first (SweepRecord::kHistory)
  DaemonCounters counters;
  /// The policy in effect: 1 for the one read at start-up, +1 for every reload that was accepted; its file.
  std::uint64_t policy_generation = 0;
  std::string policy_source;
  /// Keys of the last accepted policy file that only a restart applies (empty: the file is in effect whole).
  std::vector<RestartNeeded> needs_restart;
  /// The policy file as the last SIGHUP found it, when it was refused and no reload was accepted since: the
  /// loader's message (file:line:column) and when the refusals began ("" when the file is in effect).
  std::string reload_refused;
  std::chrono::system_clock::time_point reload_refused_since{};
  std::uint64_t reloads_refused_total = 0;  ///< SIGHUPs whose file was refused, since the daemon started
  /// host:port the Prometheus endpoint is bound to (metrics.listen with port 0 resolved); "" when not serving.
  std::string metrics_address;
  /// Where the daemon writes the RoCE plan (state_dir/roce-plan.json, `smctl export roce`); "" when the
  /// policy turns the export off (roce.export: false).
  std::string roce_plan_path;
  /// The partition policy in effect and the last programming sweep's plan of it (null before the first).
  std::shared_ptr<const PartitionsSpec> partition_policy;
  std::shared_ptr<const PartitionPlan> partitions;
  /// The SA's multicast groups with their trees, by MLID.
  std::vector<McastGroupView> groups;
  /// The Subnet Administrator's counters as of this snapshot's making (null: the SA is turned off).
  std::shared_ptr<const SaStats> sa;
  /// The PerfMgr's last completed counter pass as of this snapshot's making (null: perfmgr.enabled is false).
  std::shared_ptr<const PerfView> perf;
  /// Ports the health rules marked unhealthy, by key, with what routing made of their cables.
  std::vector<UnhealthyPortView> unhealthy;
  std::uint64_t unhealthy_marks_total = 0;  ///< ports marked since the daemon started
  std::uint64_t babbling_ports_total = 0;   ///< ports found babbling (health.babbling_port) since the start
  std::uint64_t babbling_links_disabled = 0;  ///< links disabled for babbling ports right now
  /// The operator's drains, in the order recorded, and the cables the last routing phase took out for them.
  std::vector<DrainedPartView> drained;
  std::uint64_t drained_cables = 0;
};

}  // namespace smd
