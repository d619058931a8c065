// The congestion-control plan (IBA Annex A10): what each switch and CA port should hold, as the 192-byte
// attribute data the CC agents store, and the Sets that put it where a read shows something else. Pure: no
// I/O. The agent (cc_agent.h) reads, asks plan_cc_writes, sends the Sets and believes one only when its
// GetResp echoes it (cc_echoed), the rule every SM table writer follows (smd/program/table_write.h). A
// separate writer because CC MADs are LID-routed GMPs on QP1 with 192 data bytes and a CC_Key, which the
// SMP writer (64-byte payloads, directed routes) cannot carry.
//
//   target       attribute                      written when                         modifier
//   switch       SwitchCongestionSetting 0x14   its 76 bytes differ from the wanted  0
//   CA port      CACongestionSetting 0x16       its 132 bytes differ                 0
//   CA port      CongestionControlTable 0x17    policy has a CCT and block differs   block 0..n-1, n <= ControlTableCap
//
// Cost: one comparison per read attribute; no write for a node that holds the policy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/cc_policy.h"
#include "mad/codec/cc.h"
#include "routing/base/ids.h"

namespace smd {

/// One CC agent the manager programs: a switch (behind its port-0 LID) or one CA port (behind its LID).
struct CcTarget {
  Guid node_guid = 0;
  PortNum port = 0;  ///< 0 for a switch
  Lid lid = 0;
  bool is_switch = false;
  std::string name;  ///< for logs: the node's display name
};

/// What one target's agent answered to the manager's Gets (nullopt: not read, or not answered).
struct CcReading {
  std::optional<mad::CcData> switch_setting;
  std::optional<mad::CongestionInfo> info;  ///< CA: ControlTableCap
  std::optional<mad::CcData> ca_setting;
  std::vector<std::optional<mad::CcData>> cct_blocks;  ///< CA: one per block the policy needs
};

/// One Set of the plan.
struct CcWrite {
  std::size_t target = 0;  ///< index into the targets the plan was made for
  std::uint16_t attr = 0;
  std::uint32_t mod = 0;
  mad::CcData data{};
};

/// The attribute data a switch should hold (SwitchCongestionSetting).
mad::CcData wanted_switch_setting(const CongestionControlPolicy& policy);
/// The attribute data a CA port should hold (CACongestionSetting).
mad::CcData wanted_ca_setting(const CongestionControlPolicy& policy);
/// The CCT blocks the policy needs (64 entries each, CCTI_Limit = entries - 1 in every block); empty when
/// the policy has no CCT.
std::vector<mad::CcData> wanted_cct_blocks(const CongestionControlPolicy& policy);

/// The Sets that make every target hold the policy, in target order. A target whose reading lacks an
/// attribute gets no Set of it (unread: the manager does not write blind); a CA gets only the CCT blocks its
/// ControlTableCap holds.
std::vector<CcWrite> plan_cc_writes(const std::vector<CcTarget>& targets, const std::vector<CcReading>& readings,
                                    const CongestionControlPolicy& policy);

/// True when `reply` (a status-0 GetResp's attribute data) shows what `w` wrote: the attribute's fields, not
/// its reserved bytes.
bool cc_echoed(const CcWrite& w, const mad::CcData& reply);

/// "SwitchCongestionSetting", "CACongestionSetting", "CongestionControlTable block 1", ...
std::string describe_cc_attr(std::uint16_t attr, std::uint32_t mod);

}  // namespace smd
