// `smctl partitions` and `smctl groups`: the partition policy with its members as the last sweep planned
// them (routing/partitions/partition_plan.h), and the SA's multicast groups with the trees the switches
// carry (FabricSnapshot::groups). Pure reads of one frozen snapshot, like requests.h.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "routing/base/status.h"
#include "smd/protocol/control_protocol.h"
#include "smd/state/fabric_snapshot.h"

namespace smd::control {

/// {enforcement, allow_both_pkeys, partitions: [{name, pkey, ipoib, index0, full, limited, members?}],
/// problems: [...]}. `pkey` ("" = all) picks one partition ("0x7fff" or its name) and lists its members
/// ({guid, description, membership}). Errors: kInvalidInput for a P_Key or name the policy does not have.
Result<Json> partitions_json(const FabricSnapshot& snap, const std::string& pkey);

/// [{mgid, mlid, members, full, non_member, send_only, root, tree_switches, programmed}], by MLID.
Json groups_json(const FabricSnapshot& snap);

/// An MGID (or any GID) as IPv6 text, the way saquery prints it: "ff12:401b:ffff::ffff:ffff".
std::string format_gid(const std::array<std::uint8_t, 16>& gid);

}  // namespace smd::control
