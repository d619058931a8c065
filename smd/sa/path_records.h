// PathRecord (IBA vol. 1, 15.2.5.16): paths between endports as the programmed LFTs carry them.
//
// What is answered, and why it is right:
//   - Endpoints come from SGID/SLID and DGID/DLID in the ComponentMask (each side: a GID, a LID, both —
//     which must name the same port — or neither, meaning every endport). A GID with a foreign subnet
//     prefix (neither the subnet's nor the default fe80::) or an unknown GUID is INVALID_GID.
//   - Each (SLID, DLID) path is walked hop by hop over the LFTs the sweep programmed (SaFabric::walk, the
//     one LFT walker); a path the switches would not deliver is not a path. MTU = the smallest MTUCap of the
//     source port, every switch port crossed (in and out) and the destination port; rate = the slowest of
//     the same ports' rates (compared by rate, smd/sa/rate.h); PacketLifeTime = sa.packet_lifetime (0 for a
//     port to itself). Reversible = the reverse LID path delivers too.
//   - MTU, Rate and PacketLifeTime selectors (>, <, exactly, largest; ignored without their value) filter or
//     lower the path's value; all answers say "exactly" (selector 2), as the value is the path's.
//   - QoS (SaSnapshot::qos, policy qos.enabled): each port pair's level is matched once, on the query's
//     P_Key and ServiceID when its ComponentMask carries them (routing/qos/qos_levels.h). The level caps the
//     path's MTU (mtu_limit) and rate (rate_limit, compared by rate) before the selectors see them, sets
//     PacketLifeTime (packet_life, else sa.packet_lifetime), and with `pkeys` the path's P_Key must be one
//     of them (a requested one, or the source's first shared entry of that list): else no path.
//   - SL: the request's (no path when the QoS level fixes another), else the level's, else 0; then the
//     routing engine's (SaSnapshot::path_sl) overrides it. An engine that needs another SL than the one
//     requested makes the path NO_RECORDS (OpenSM ERR 1F2A).
//   - P_Key (smd/sa/partition_rules.h): the requester must share a partition with both ends, the ends with
//     each other; the path carries the source's first entry that matches the destination (partition order,
//     so the index-0 P_Key first), or with P_Key in the ComponentMask the requested one if both ends hold
//     matching entries of its base. Limited-limited pairs have no path.
//   - With LMC > 0 the distinct-LID pairs (i-th SLID with i-th DLID) come first, Preference 0, then the
//     rest, Preference 2; NumbPath limits the paths per port pair (a Get asks for exactly one).
// Cost: O(paths x hops); a Get between two named ports walks 2 x (number of LID pairs) paths.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"

namespace smd::sa {

SaAnswer answer_path_records(const SaSnapshot& snap, const SaQuery& q);

}  // namespace smd::sa
