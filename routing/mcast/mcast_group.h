// The input of multicast tree construction: one multicast group as the endports that are its members
// now (the SA's MCMemberRecord joins resolved against one Topology). IBA 10.5 (multicast), 15.2.5.17.
#pragma once

#include <utility>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// The first multicast LID (IBA 4.1.1: multicast LIDs are 0xC000-0xFFFE).
inline constexpr Lid kFirstMulticastLid = 0xC000;

/// One MLID and its member endports: CA ports (node, port >= 1) and switch management ports (switch, 0).
/// Order does not matter; a port listed twice counts once. No members: the group is gone.
struct McastGroupPorts {
  Lid mlid = 0;
  std::vector<std::pair<NodeIndex, PortNum>> members;
};

}  // namespace smd
