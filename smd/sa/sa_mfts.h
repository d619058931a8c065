// SaMfts: the multicast forwarding tables the SM programmed and verified (routing/mcast/mcast_tables.h
// McastTables, per switch), frozen for the SA's MulticastForwardingTableRecord (IBA vol. 1, 15.2.5.8).
// Built by the SM when its tables change, published in the SaSnapshot; the SA only reads it.
#pragma once

#include <map>
#include <unordered_map>

#include "routing/base/ids.h"
#include "routing/mcast/mcast_tables.h"

namespace smd::sa {

struct SaMfts {
  /// The highest MLID the SA has given out (0: none). MFT blocks 0 .. (highest_mlid - 0xC000) / 32 are
  /// the SM's on every switch that forwards multicast; entries without a tree hold no ports.
  Lid highest_mlid = 0;
  /// Switch GUID -> MLID -> the ports it forwards that MLID out of (non-empty masks only).
  std::unordered_map<Guid, std::map<Lid, McastPortMask>> by_switch;
};

}  // namespace smd::sa
