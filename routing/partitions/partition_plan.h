// The partition planner (OpenSM's osm_pkey_mgr.c as a pure function): which P_Key table every port
// should hold for a PartitionsSpec on one Topology (IBA 10.9 partitions, 14.2.5.7 P_KeyTable), and
// which switch ports enforce partitions (14.2.5.6 PortInfo PartitionEnforcementInbound/Outbound).
//
// What it decides, per endport (CA port, switch port 0):
// - membership: each partition's members resolved by selector; full entries are base|0x8000, limited
//   entries the base alone; `both` gives both entries with allow_both_pkeys, else it counts as full; a
//   port named full and limited in one partition is full (both entries with allow_both_pkeys);
// - layout into the port's PartitionCap entries, stable across sweeps: an entry keeps the index it had in
//   the previous layout of that port (the same value, else the same base); index 0 holds the entry of the
//   first index0 partition of the port, else the default partition's 0x7fff entry (IPoIB reads index 0);
//   new entries take the lowest free index; removed ones leave their slot 0.
// - a set larger than the cap keeps its first `cap` entries in partition order (the index-0 entry
//   first) and reports a problem naming the port.
// Per switch external port facing a CA: the CA port's entries copied (a limited entry is left out when
// its full twin is there) into a table of PartitionEnforcementCap entries, and the enforcement bits per
// PartitionsSpec::enforcement; enforcement is off when the copy does not fit (a problem) or the switch
// has no enforcement table (cap 0: not a problem), and off on switch-to-switch links.
// Ports with PartitionCap 0 have no P_Key table and get none. Cost: O(ports x partitions + entries).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "routing/model/topology.h"
#include "routing/partitions/partition_spec.h"

namespace smd {

/// A P_Key table entry: bit 15 membership (1 full), bits 14:0 the base; 0 is an empty slot.
using PKey = std::uint16_t;

/// The table sizes of one sweep's fabric, indexed by NodeIndex of the Topology planned over.
struct PartitionCaps {
  std::vector<std::uint16_t> partition_cap;    ///< NodeInfo:PartitionCap (CA ports, switch port 0)
  std::vector<std::uint16_t> enforcement_cap;  ///< SwitchInfo:PartitionEnforcementCap (switch external ports)
};

/// What one port should hold.
struct PortPartitions {
  NodeIndex node = kNoNode;
  PortNum port = 0;
  Guid port_guid = 0;        ///< endports: the port GUID; switch external ports: the switch's
  bool endport = true;       ///< false: a switch external port (P_Key table by enforcement)
  std::vector<PKey> table;   ///< the wanted table, `cap` entries (0 = empty slot); blocks of 32, the last padded
  bool enforce_in = false;   ///< PortInfo PartitionEnforcementInbound (switch external ports only)
  bool enforce_out = false;  ///< PortInfo PartitionEnforcementOutbound (switch external ports only)
  bool has_table = true;     ///< false: no table is written (cap 0, or an enforcement copy that does not fit)
};

/// Which cap a port's P_Keys exceed, and so what was given up.
enum class PartitionProblemCode {
  kPartitionCap,    ///< an endport's set above NodeInfo:PartitionCap: the last entries in partition order left out
  kEnforcementCap,  ///< a CA's set above its switch port's PartitionEnforcementCap: enforcement off on that port
};

/// Short stable name of a PartitionProblemCode ("partition-cap", "enforcement-cap").
const char* to_string(PartitionProblemCode code);

/// Something the fabric cannot hold: a set above a cap. `reason` names the port and what was left out.
struct PartitionProblem {
  Guid node_guid = 0;
  PortNum port = 0;
  std::string reason;
  PartitionProblemCode code = PartitionProblemCode::kPartitionCap;
};

/// The planner's answer, plain data (DesiredFabric::partitions holds it frozen for the SA and smctl).
struct PartitionPlan {
  std::map<PortKey, PortPartitions> ports;  ///< every endport with a table, every switch port facing a CA
  /// Endport port GUID -> its P_Keys in partition order, what it is a member of (before any cap cut).
  std::unordered_map<Guid, std::vector<PKey>> members;
  std::vector<PartitionProblem> problems;

  /// The P_Keys of the endport with `port_guid` (empty when it is in no partition or unknown).
  const std::vector<PKey>& pkeys_of(Guid port_guid) const;
  /// The port's plan, null when it has none.
  const PortPartitions* port(Guid node_guid, PortNum port) const;
};

/// Plan the tables for `spec` on `topo`. `self_node`/`self_port` is the SM's own endport (SELF).
/// `previous` is the last sweep's plan (indexes stay where it put them), or null.
PartitionPlan plan_partitions(const Topology& topo, const PartitionsSpec& spec, NodeIndex self_node, PortNum self_port,
                              const PartitionCaps& caps, const PartitionPlan* previous);

/// Full and limited members of the partition with base `base` in `plan` (IBA 10.9.1: the top bit of a
/// P_Key entry is the membership type), counted over endports.
struct PartitionMembership {
  std::size_t full = 0;
  std::size_t limited = 0;
  bool operator==(const PartitionMembership&) const = default;
};
PartitionMembership membership_of(const PartitionPlan& plan, PKeyBase base);

/// "Default partition (0x7fff): full members 112 -> 1, limited 0 -> 111" when the default partition's
/// membership differs between two sweeps' plans (`before` null: the first plan, nothing said). Adding a
/// partition to the policy makes every other port a limited member of the default partition (OpenSM's
/// rule); this says so where it happens.
std::optional<std::string> default_membership_change(const PartitionPlan* before, const PartitionPlan& after);

/// IBA 10.9.3 P_Key matching: two ports may talk when they hold entries with the same base of which at
/// least one is full (limited with limited does not match). Empty slots (0) and 0x8000 never match.
bool pkeys_match(PKey a, PKey b);
/// True when some entry of `a` matches some entry of `b` (pkeys_match).
bool pkeys_share(const std::vector<PKey>& a, const std::vector<PKey>& b);

}  // namespace smd
