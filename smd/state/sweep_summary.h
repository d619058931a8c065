// SweepSummary: what one heavy sweep did and found, as plain data. The sweep fills it; `smd --once`
// prints it, and the daemon's snapshot carries the last one (so the snapshot needs no sweep code).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "smd/fabric/sweep_problem.h"

namespace smd {

/// The phases of a heavy sweep, in the order they run (OpenSM logs the same ones).
enum class SweepPhase : std::uint8_t {
  kDiscovery,        ///< heavy sweep, re-sweep of what was unread, or incremental re-read
  kLids,             ///< LIDs assigned (guid2lid)
  kRouting,          ///< routing computed and verified (engine chain, minimal repair)
  kEndports,         ///< endports configured (LID, LMC, MasterSMLID; the SM-owned port fields)
  kSwitches,         ///< switches configured (LinearFDBTop, LFT blocks)
  kPartitions,       ///< partitions configured (P_Key tables, partition enforcement)
  kQos,              ///< QoS configured (SL2VL, VLArb, VLHighLimit); only with qos.enabled
  kMulticast,        ///< multicast configured (trees rebuilt where needed, MFT blocks, MulticastFDBTop)
  kLinksArmed,       ///< links armed
  kLinksActive,      ///< links active
  kPortStateChange,  ///< PortStateChange cleared
};

/// Wall time of one phase, in milliseconds; `phase` is the name as logged.
struct PhaseTime {
  SweepPhase id = SweepPhase::kDiscovery;
  std::string phase;
  double ms = 0;
};

/// What one heavy sweep did and found: the summary `smd --once` prints.
struct SweepSummary {
  bool subnet_up = false;                ///< every LID set, every link Active, every table held
  bool stopped_after_discovery = false;  ///< the discovery gate said another SM is master
  bool resumed = false;                  ///< a SweepScope::kFailed re-sweep (discovery resumed)
  bool incremental = false;              ///< a SweepScope::kChanged sweep re-read only what changed
  std::string full_discovery_because;    ///< a kChanged sweep that had to discover the whole fabric: why
  std::size_t gaps = 0;                  ///< resumed: attributes the last sweep could not read
  unsigned discovery_rounds = 0;         ///< extra discovery passes for what lost SMPs left unread
  std::size_t switches = 0, cas = 0, links = 0, lids = 0;
  std::string engine;                                      ///< routing engine that produced the tables
  std::vector<std::string> declined;                       ///< "ftree: not a fat tree" ...
  std::uint64_t smps_sent = 0, retries = 0, timeouts = 0;  ///< transport counters for this sweep
  std::uint64_t send_errors = 0;  ///< SMPs of this sweep the port refused to send (umad_send failed)
  unsigned lft_blocks_written = 0, lft_blocks_skipped = 0, port_sets = 0;
  unsigned pkey_blocks_written = 0, pkey_blocks_skipped = 0;    ///< P_KeyTable blocks Set / already held
  unsigned sl2vl_tables_written = 0, sl2vl_tables_skipped = 0;  ///< SLtoVLMappingTable Sets / (in, out) held
  unsigned vlarb_blocks_written = 0, vlarb_blocks_skipped = 0;  ///< VLArbitration blocks Set / already held
  unsigned mcast_groups = 0;         ///< multicast groups (MLIDs) the switches carry after the sweep
  unsigned mcast_trees_rebuilt = 0;  ///< of them, trees rebuilt or removed by this sweep
  unsigned mft_blocks_written = 0, mft_blocks_skipped = 0;  ///< MFT (block, position) Sets / already held
  unsigned client_reregisters = 0;  ///< endport PortInfo Sets that carried ClientReregister and were believed
  std::size_t repair_entries = 0;   ///< (switch, LID) entries re-routed by a minimal repair (0: fresh tables)
  std::vector<PhaseTime> phases;
  std::vector<SweepProblem> problems;  ///< every failure with its code, node GUID, DR path and attribute
  double total_ms = 0;
};

}  // namespace smd
