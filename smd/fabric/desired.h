// DesiredFabric: what routing and policy want the fabric to hold for one sweep: the LIDs (routing/lids),
// the verified forwarding tables (routing/chain, routing/verify), the partition plan (routing/partitions) and what
// every endport's PortInfo should say. Plain data, frozen once built; the programmers (smd/program) turn it, against
// what the SMAs acknowledged, into the writes that differ.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "routing/model/forwarding.h"
#include "routing/model/lid_map.h"
#include "routing/model/route_proof.h"
#include "routing/partitions/partition_plan.h"
#include "routing/qos/sl2vl_plan.h"
#include "routing/qos/vlarb_plan.h"

namespace smd {

/// The values of the SM-owned PortInfo fields (smd/fabric/port_fields.h) and of SwitchInfo LifeTimeValue, as
/// the policy's `ports:` section gives them (OpenSM's defaults). Codes, not times: 4.096 us * 2^code. "Leaf"
/// values are for switch ports facing a CA or router. The link codes 0 mean "leave as is"; 255 (width), 15
/// (speed) and 31 (extended speed) mean "what the port supports", 30 "extended speeds off".
struct PortFieldSettings {
  std::uint8_t subnet_timeout = 18;
  std::uint8_t master_sm_sl = 0;
  std::uint8_t hoq_life = 0x12;
  std::uint8_t leaf_hoq_life = 0x10;
  std::uint8_t vl_stall_count = 7;
  std::uint8_t leaf_vl_stall_count = 7;
  std::uint8_t local_phy_errors = 8;
  std::uint8_t overrun_errors = 8;
  std::uint8_t link_width_enabled = 255;
  std::uint8_t link_speed_enabled = 15;
  std::uint8_t link_speed_ext_enabled = 31;
  std::uint8_t life_time_value = 0x12;  ///< SwitchInfo LifeTimeValue (IBA 14.2.5.4)
};

/// The PortInfo fields the SM sets on every endport (switch port 0, CA ports) besides LID and LMC
/// (IBA 14.2.5.6; M_Key: 14.2.4).
struct EndportSettings {
  std::uint64_t subnet_prefix = 0xfe80000000000000ULL;  ///< GidPrefix
  Lid sm_lid = 0;                                       ///< MasterSMLID: where traps go
  /// M_Key, MKeyProtectBits and M_KeyLeasePeriod (s); with m_key 0 a port's M_Key fields are left as they are.
  std::uint64_t m_key = 0;
  std::uint8_t m_key_protect = 0;
  std::uint16_t m_key_lease_period_s = 0;
  /// security.m_key_per_port: each endport gets its own key, derived from m_key and its port GUID
  /// (smd/program/port_m_key.h), instead of m_key itself.
  bool m_key_per_port = false;
  /// Endports (by port GUID) whose next PortInfo Set carries ClientReregister: every endport in the first
  /// sweep as master, ports new to the SM, all of them when MasterSMLID changes (IBA 14.4.11).
  std::unordered_set<Guid> client_reregister;
  PortFieldSettings fields;  ///< the SM-owned fields of every port, endports and switch ports alike
};

struct DesiredFabric {
  std::shared_ptr<const LidMap> lids;           ///< every endport's LID range
  std::shared_ptr<const RoutingTables> tables;  ///< one LFT per switch, verified
  /// The per-LID up*/down* verdicts of `tables` on the topology they were routed on, for the next local
  /// repair (routing/verify/local_repair.h); null until made (a local repair's own, or after programming).
  std::shared_ptr<const RouteProof> route_proof;
  EndportSettings endports;
  std::shared_ptr<const PartitionPlan> partitions;  ///< P_Key tables, enforcement, membership (null: none yet)
  /// SLtoVLMappingTables every port should hold (policy and routing layers); null when QoS is off, so
  /// nothing is programmed. Built before any write, so the SL2VL verifier can check it first.
  std::shared_ptr<const Sl2VlPlan> sl2vl;
  std::vector<PortVlArb> vlarb;  ///< VL arbitration of every port (empty when QoS is off)
};

}  // namespace smd
