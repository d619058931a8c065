// TableWrite: one SMP Set of a programming plan, and the rule by which its answer is believed. A plan is
// a pure function of (what the SMAs acknowledged, what the SM wants) that returns writes
// (smd/program/lft_plan.h, port_plan.h); one writer sends any plan (table_writer.h). A new table (P_Key
// blocks, SL2VL, VLArb, MFT blocks) is a plan function and an EchoRule, not a new send loop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mad/codec/smp.h"
#include "routing/base/ids.h"

namespace smd {

/// What the GetResp of a Set must show for the SM to believe the SMA holds what was written.
enum class EchoRule : std::uint8_t {
  kPayload,          ///< all 64 payload bytes (LFT block; P_Key, VLArb and MFT blocks have the same shape)
  kLinearFdbTop,     ///< SwitchInfo: LinearFDBTop and LifeTimeValue as written (ibsim and switches store both)
  kMulticastFdbTop,  ///< SwitchInfo: MulticastFDBTop as written
  kPortLidLmc,       ///< PortInfo: LID and LMC as written
  /// PortInfo: LID and LMC as written, by a Set that also arms the port (plan_endports with ArmCaPorts).
  /// Not idempotent either: a failed one is read back by the caller, as kPortState.
  kPortLidLmcArmed,
  kPortState,  ///< PortInfo: PortState as written. Not idempotent: a failed one is read back by the caller
  kAnswered,   ///< any status-0 answer (SwitchInfo PortStateChange clear: the bit reads back 0 or 1)
  kPortPartitionEnforcement,  ///< PortInfo: PartitionEnforcementInbound and Outbound as written
  kSl2Vl,                     ///< SLtoVLMappingTable: the 8 table bytes as written (the rest is reserved)
  kPortVlHighLimit,           ///< PortInfo: VLHighLimit as written
  /// PortInfo Set of a switch port's SM-owned fields (port_fields_plan.h): HOQLife as written. The other
  /// fields are not asked for: ibsim stores none of VLStallCount, SubnetTimeOut, MasterSMSL and the error
  /// thresholds, and an SMA reads back LinkWidthSupported, not the 255 it was sent. What each answered is
  /// remembered instead (AppliedPortFields), so such a port is not written again on every sweep.
  kPortHoqLife,
};

/// One Set of a plan. `node` and `port` say whose record the answer updates; `guid` names the node in
/// problems and keys what outlives the sweep (smd/fabric/applied_tables.h).
struct TableWrite {
  NodeIndex node = kNoNode;
  PortNum port = 0;  ///< the port the attribute belongs to (PortInfo), else 0
  Guid guid = 0;
  EchoRule echo = EchoRule::kPayload;
  mad::SmpRequest request;  ///< method Set, directed path, attribute, modifier, payload
};

/// A Set of `attr` to (node, port) at directed path `path`, to be believed by `echo`; the caller encodes
/// the payload. Every plan builds its writes with it (or add_set).
TableWrite make_set(NodeIndex node, PortNum port, Guid guid, const mad::DrPath& path, std::uint16_t attr,
                    std::uint32_t mod, EchoRule echo);

/// Appends a Set of `attr` to `plan` for (node, port) at directed path `path`, to be believed by `echo`;
/// the caller encodes the payload into the returned write.
TableWrite& add_set(std::vector<TableWrite>& plan, NodeIndex node, PortNum port, Guid guid, const mad::DrPath& path,
                    std::uint16_t attr, std::uint32_t mod, EchoRule echo);

/// True when `reply` (a status-0 GetResp payload) shows what `w` wrote, by `w.echo`.
bool echoed(const TableWrite& w, const mad::SmpData& reply);

/// The attribute as problems name it: "LinearForwardingTable Set block 3", "SwitchInfo Set LinearFDBTop",
/// "PortInfo Set 2", "SwitchInfo Set PortStateChange", "MulticastForwardingTable Set block 1 position 2",
/// "SwitchInfo Set MulticastFDBTop", "SLtoVLMappingTable Set in 2 out 3", "VLArbitrationTable Set block 1
/// port 3".
std::string describe_write(const TableWrite& w);

/// Why a status-0 answer was not believed: "block not echoed", "top not taken", "LID 5 not taken (port
/// reports 0)".
std::string not_echoed_reason(const TableWrite& w, const mad::SmpData& reply);

}  // namespace smd
