// The QoS write plan (OpenSM's osm_qos.c, as pure functions): which SMP Sets make every port hold the
// SLtoVLMappingTables of an Sl2VlLookup (IBA 14.2.5.8), the VLArbitration blocks and VLHighLimit of a
// VL arbitration plan (14.2.5.9, 14.2.5.6; routing/qos/vlarb_plan.h), against what the ports
// acknowledged (AppliedQos). No SMP is sent here; qos_programmer.h sends.
//
// SL2VL, as OpenSM: every CA and router port whose CapabilityMask has IsSLMappingSupported (AttrMod 0,
// the port the SMP enters by); on a switch every (in, out) with out 1..N and in 0..N, and (0, 0) when
// port 0 is enhanced (a base port 0 has no SL2VL of its own; its packets use the in-0 tables of the
// external ports). A switch whose SwitchInfo advertises OptimizedSLtoVLMappingProgramming gets one Set
// for all its external (in, out) pairs (AttrMod bits 16 and 17, OpenSM's 0x30000) when the plan gives
// every out port the same table and some pair is not acknowledged.
// First contact writes everything (smd's sweep does not read these tables); from then on only what
// differs from what was acknowledged.
#pragma once

#include <vector>

#include "routing/qos/sl2vl_lookup.h"
#include "routing/qos/vlarb_plan.h"
#include "smd/fabric/applied_qos.h"
#include "smd/fabric/sweep_fabric.h"
#include "smd/program/table_write.h"

namespace smd {

/// PortInfo:CapabilityMask IsSLMappingSupported (IBA 14.2.5.6, bit 6).
inline constexpr std::uint32_t kIsSlMappingSupported = 1u << 6;

/// The SLtoVLMappingTable Sets (EchoRule::kSl2Vl) of `want` that differ from `applied`; `skipped` counts
/// the tables already held. TableWrite::port is the out port; the in port is the modifier's bits 15:8.
std::vector<TableWrite> plan_sl2vl_writes(const SweepFabric& fabric, const Sl2VlLookup& want, const AppliedQos& applied,
                                          unsigned& skipped);

/// The VLArbitration block Sets (EchoRule::kPayload) of `want` that differ from `applied`: blocks 1..2
/// (low) and 3..4 (high) as far as the port's caps reach; `skipped` counts blocks already held.
std::vector<TableWrite> plan_vlarb_writes(const SweepFabric& fabric, const std::vector<PortVlArb>& want,
                                          const AppliedQos& applied, unsigned& skipped);

/// The PortInfo Sets of VLHighLimit (EchoRule::kPortVlHighLimit) where the sweep's PortInfo differs.
std::vector<TableWrite> plan_vl_high_limit(const SweepFabric& fabric, const std::vector<PortVlArb>& want,
                                           unsigned& skipped);

/// The caps plan_vlarb needs, from the sweep's PortInfo ([NodeIndex][PortNum]; zero where unread), and
/// which switches have an enhanced port 0 (SwitchInfo).
std::vector<std::vector<VlArbCaps>> vlarb_caps(const SweepFabric& fabric);
std::vector<bool> enhanced_port0(const SweepFabric& fabric);

/// The blocks of one port's wanted arbitration, in block order (low 0, low 1, high 0, high 1), only as
/// many as the tables' lengths reach (32 entries per block, the last padded with empty entries).
std::vector<std::pair<mad::VlArbBlock, mad::VlArbBlockData>> vlarb_blocks(const PortVlArb& want);

}  // namespace smd
