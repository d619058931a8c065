// McastTables: the multicast forwarding state routing wants, one spanning tree per MLID, each as the port
// mask every switch of the tree holds for that MLID (IBA 14.2.5.11, MulticastForwardingTable). Keyed by
// GUID, not NodeIndex, so that tables outlive the Topology they were computed on: after a re-discovery the
// same tables are checked against the new fabric (mcast_tree.h groups_to_rebuild) and programmed by GUID.
#pragma once

#include <array>
#include <bit>
#include <compare>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "routing/base/ids.h"

namespace smd {

/// The ports one switch forwards an MLID out of, in the MFT's own layout: bit i of words[p] is port
/// 16p + i (p is the MFT PortMask position). Ports 0..254; port 0 means "the switch itself is a member".
struct McastPortMask {
  static constexpr unsigned kPositions = 16;
  std::array<std::uint16_t, kPositions> words{};

  void set(PortNum p) { words[p / 16] = static_cast<std::uint16_t>(words[p / 16] | (1u << (p % 16))); }
  void reset(PortNum p) { words[p / 16] = static_cast<std::uint16_t>(words[p / 16] & ~(1u << (p % 16))); }
  bool test(PortNum p) const { return (words[p / 16] >> (p % 16)) & 1u; }
  bool empty() const {
    for (std::uint16_t w : words) {
      if (w != 0) return false;
    }
    return true;
  }
  unsigned count() const {
    unsigned n = 0;
    for (std::uint16_t w : words) n += static_cast<unsigned>(std::popcount(w));
    return n;
  }
  /// fn(port) for every port in the mask, ascending.
  template <typename Fn>
  void for_each(Fn&& fn) const {
    for (unsigned pos = 0; pos < kPositions; ++pos) {
      for (unsigned w = words[pos]; w != 0; w &= w - 1) fn(static_cast<PortNum>(pos * 16 + std::countr_zero(w)));
    }
  }
  bool operator==(const McastPortMask&) const = default;
};

/// One member endport, by node GUID and port number (a switch member is (switch GUID, 0)).
struct McastMember {
  Guid node_guid = 0;
  PortNum port = 0;
  auto operator<=>(const McastMember&) const = default;
};

/// One MLID's tree. `switches` is empty when the group needs none (fewer than 2 member ports reachable).
struct McastTree {
  Guid root = 0;                         ///< the root switch (0: no tree)
  std::vector<McastMember> members;      ///< member ports the tree delivers to, sorted
  std::vector<McastMember> unreachable;  ///< member ports it cannot reach (no cable, other component), sorted
  std::vector<std::pair<Guid, McastPortMask>> switches;  ///< (switch GUID, mask), sorted by GUID

  /// The mask switch `sw` holds for this MLID, null when it is not on the tree. O(log switches).
  const McastPortMask* mask(Guid sw) const;
};

/// Every MLID's tree. A group that was computed has an entry even when it needs no tree.
struct McastTables {
  std::map<Lid, McastTree> trees;
  /// The highest MLID the SA has given out, trees or not (0: none). The MFT blocks up to it are the SM's:
  /// a switch seen for the first time gets them written (cleared where no tree passes) before any join.
  Lid highest_mlid = 0;
};

/// The per-switch view the MFT plan writes: switch GUID -> MLID -> mask, only non-empty masks. O(entries).
std::unordered_map<Guid, std::map<Lid, McastPortMask>> mft_by_switch(const McastTables& tables);

/// "0xc001": an MLID as OpenSM and ibroute print it.
std::string format_mlid(Lid mlid);

}  // namespace smd
