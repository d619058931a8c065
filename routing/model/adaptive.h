// Adaptive-routing (AR) plan: for every switch and destination LID, the group of output ports a switch
// may choose from per packet. Every member must lie on a shortest path that keeps the engine's
// deadlock freedom (up/down-legal for updn and ftree). Groups are deduplicated the way switch AR group
// tables are: a list of distinct port sets, each (switch, LID) pointing at one group id.
// The plan is data only: programming it needs a vendor backend (vendor AR attributes are not public,
// and ibsim has none).
#pragma once

#include <cstdint>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

inline constexpr std::uint32_t kNoArGroup = 0xFFFFFFFFu;

struct AdaptivePlan {
  /// Distinct port groups, each sorted ascending, each with at least one port.
  std::vector<std::vector<PortNum>> groups;
  /// [NodeIndex][LID] -> index into `groups`, kNoArGroup where the switch has no route (or for CAs: empty).
  std::vector<std::vector<std::uint32_t>> group_of;

  /// The group a switch uses for a LID, nullptr if none.
  const std::vector<PortNum>* group(NodeIndex sw, Lid lid) const {
    if (sw >= group_of.size() || lid >= group_of[sw].size() || group_of[sw][lid] == kNoArGroup) return nullptr;
    return &groups[group_of[sw][lid]];
  }
};

}  // namespace smd
