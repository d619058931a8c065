// McastGroupGuids: one multicast group as the SA holds it, for the SM that builds its tree: the MLID and
// the port GUIDs of its members (IBA 15.2.5.17 MCMemberRecord joins; every JoinState counts: OpenSM puts
// send-only members on the tree too). Plain data, by GUID so that it outlives a Topology: each pass
// resolves the GUIDs against the fabric it programs.
#pragma once

#include <vector>

#include "routing/base/ids.h"

namespace smd {

struct McastGroupGuids {
  Lid mlid = 0;
  std::vector<Guid> port_guids;  ///< member endports (CA port GUID, or a switch's port-0 GUID)

  bool operator==(const McastGroupGuids&) const = default;
};

}  // namespace smd
