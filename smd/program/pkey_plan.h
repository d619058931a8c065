// The P_Key plan (OpenSM's osm_pkey_mgr.c, as pure functions): which SMP Sets make every port hold the
// P_Key table the partition plan wants (routing/partitions/partition_plan.h; IBA 14.2.5.7) and the
// partition enforcement bits of each switch port facing a CA (14.2.5.6).
//
// First contact: smd's sweep does not read P_Key tables, so a port the SM has no acknowledged block for
// gets every block of its table written once, empty blocks included (that clears what another SM or a
// previous policy left there; OpenSM reads the tables instead and writes what differs, which costs the
// same Gets). From then on only the blocks that differ from what was acknowledged (AppliedPKeys) are
// written, so a policy reload rewrites exactly the blocks whose entries changed.
// Enforcement is a PortInfo Set (read-modify-write of the PortInfo the sweep holds, PortState NoChange)
// where the bits differ from what the port reports; it is turned on only once the port's whole table is
// acknowledged, so a switch port never filters against a table it does not hold yet, and only in the
// directions SwitchInfo says the switch can enforce (Inbound/OutboundEnforcementCap, IBA 14.2.5.4;
// OpenSM does not look, and its Sets are then silently ignored). No SMP is sent here; pkey_programmer.h
// sends.
#pragma once

#include <vector>

#include "routing/partitions/partition_plan.h"
#include "smd/fabric/applied_pkeys.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/fabric/sweep_problem.h"
#include "smd/program/table_write.h"

namespace smd {

struct PKeyPlan {
  std::vector<TableWrite> writes;  ///< P_KeyTable Sets (EchoRule::kPayload), in port order, blocks ascending
  unsigned ports = 0;              ///< ports with a table to hold
  unsigned blocks_skipped = 0;     ///< blocks known to hold their wanted content already
};

/// The 32-entry blocks of `table` (the last one padded with empty entries).
std::vector<AppliedPortPKeys::Block> pkey_blocks(const std::vector<PKey>& table);

/// The P_KeyTable writes for `want` against what the ports acknowledged. Ports whose node is not in the
/// sweep's fabric (by GUID) are left out.
PKeyPlan plan_pkey_tables(const SweepFabric& fabric, const PartitionPlan& want, const AppliedPKeys& applied);

/// The PortInfo Sets of partition enforcement (EchoRule::kPortPartitionEnforcement) on switch external
/// ports whose bits differ from what the sweep holds; `skipped` counts the ports already right. A port
/// whose PortInfo was never read is left out (discovery named it).
std::vector<TableWrite> plan_pkey_enforcement(const SweepFabric& fabric, const PartitionPlan& want,
                                              const AppliedPKeys& applied, unsigned& skipped);

/// The planner's problems (a set above PartitionCap or PartitionEnforcementCap) as sweep problems
/// (code kCapacity), each naming the node GUID, the directed path and "P_KeyTable <port>".
std::vector<SweepProblem> partition_problems(const SweepFabric& fabric, const PartitionPlan& want);

}  // namespace smd
