// What a check of one table set proved about each LID's routes (routing/verify/updown_check.h), kept
// beside the tables so that the next local repair re-checks only the LIDs a change can reach
// (routing/verify/local_repair.h; issue 20: "verify only what changed"). It holds for the topology the
// tables were routed on: the routes of a LID whose entries avoid every changed channel, and whose
// destination is where it was, are the same switch paths as when the proof was made, so under the same
// switch order their verdict is the same, or stricter than a fresh one where a switch has lost its CAs
// since (it no longer counts as a host source), never weaker.
#pragma once

#include <cstdint>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// Per-LID verdict bits of RouteProof::verdict.
enum RouteVerdict : std::uint8_t {
  kRouteProved = 1,    ///< the LID was checked (unused or unroutable LIDs stay 0)
  kRouteDelivers = 2,  ///< every switch's route delivers (lft_walk.h's hop rule)
  kRouteCaLegal = 4,   ///< every route from a switch with CAs is up*/down* legal
  kRouteLegal = 8,     ///< every route is up*/down* legal
};

/// See the header comment. Sizes: order = switches; the per-LID vectors = max LID + 1.
struct RouteProof {
  std::vector<std::uint64_t> order;       ///< switch node GUIDs by up*/down* rank (LevelOrder), lowest first
  std::vector<std::uint8_t> verdict;      ///< [LID] RouteVerdict bits
  std::vector<std::uint64_t> dst_switch;  ///< [LID] node GUID of the switch that delivers it (0: none)
  std::vector<PortNum> dst_port;          ///< [LID] the port it delivers by (0 for a switch's own LID)

  bool operator==(const RouteProof&) const = default;
};

}  // namespace smd
