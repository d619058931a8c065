// AppliedState: everything the SMAs acknowledged of the SM's writes, kept across sweeps: LFTs, MFTs, P_Key
// tables, SL2VL and VLArb tables, and the SM-owned PortInfo fields. Each table keeps its own store (the
// shapes differ: per switch, per port, per (in, out) pair), but what the SM may still believe is decided
// here, once, for all of them: a node that left the fabric may come back reset, and a switch whose
// LinearFDBTop is not the one it acknowledged was reset (lost its tables), so nothing of either is
// believed any more and the next plans write their tables in full.
#pragma once

#include <vector>

#include "routing/base/ids.h"
#include "routing/model/topology.h"
#include "smd/fabric/applied_mft.h"
#include "smd/fabric/applied_pkeys.h"
#include "smd/fabric/applied_port_fields.h"
#include "smd/fabric/applied_qos.h"
#include "smd/fabric/applied_tables.h"
#include "smd/fabric/sweep_fabric.h"

namespace smd {

struct AppliedState {
  AppliedTables lft;  ///< LFT blocks and LinearFDBTop, by switch GUID
  AppliedMft mft;     ///< MFT blocks and MulticastFDBTop, by switch GUID
  AppliedPKeys pkeys;  ///< P_Key blocks and enforcement bits, by (node GUID, port)
  AppliedQos qos;      ///< SL2VL tables and VLArb blocks, by (node GUID, port)
  AppliedPortFields port_fields;  ///< the SM-owned PortInfo fields as set and answered (port_fields.h)

  /// Forget every table of one node: the next plans write all of them.
  void forget(Guid node_guid);
  /// Forget everything (another SM programs the fabric now).
  void forget_all();

  /// Applies the reset rule before a sweep plans its writes. `before` is the last sweep's topology (null
  /// on the first sweep). Nodes of `before` missing from `fabric` lose every table. A switch whose
  /// LinearFDBTop (as discovery read it) differs from the acknowledged one lost its P_Key, SL2VL, VLArb
  /// and MFT tables and port fields with its LFT (ibsim's switches, like many, do not support
  /// MulticastFDBTop, so the LFT's top is the only sign); its LFT itself is left to the LFT plan, which
  /// finds the same mismatch and says so (lft_plan.h). Returns the GUIDs forgotten as reset switches.
  std::vector<Guid> forget_reset(const Topology* before, const SweepFabric& fabric);

 private:
  // Every store but the LFT's, whose own plan notices a reset.
  void forget_beside_lft(Guid node_guid);
};

}  // namespace smd
