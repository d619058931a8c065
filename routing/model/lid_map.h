// LidMap: which LIDs belong to which port. Switches carry one LID on port 0 (LMC 0); each CA port
// carries 2^LMC consecutive LIDs starting at an LMC-aligned base (IBA 7.11.1).
#pragma once

#include <optional>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/topology.h"

namespace smd {

/// The endpoint a LID addresses.
struct LidOwner {
  NodeIndex node = kNoNode;
  PortNum port = 0;
};

class LidMap {
 public:
  /// Give (node, port) the LIDs base .. base + 2^lmc - 1. Errors: base not aligned, range above 0xBFFF,
  /// or a LID in the range already owned by another port.
  Status assign(NodeIndex node, PortNum port, Lid base, std::uint8_t lmc);

  /// Base LID of a port (switch: pass port 0), 0 if none.
  Lid base_lid(NodeIndex node, PortNum port) const;
  /// LMC of a port's assignment, 0 if none.
  std::uint8_t lmc_of(NodeIndex node, PortNum port) const;
  /// Owner of a LID, nullopt if unassigned.
  std::optional<LidOwner> owner(Lid lid) const;
  /// Highest LID in use (0 when empty): the LinearFDBTop every switch needs.
  Lid max_lid() const { return static_cast<Lid>(owners_.empty() ? 0 : owners_.size() - 1); }
  /// Every (base LID, owner, lmc) in LID order.
  struct Entry {
    Lid base;
    std::uint8_t lmc;
    LidOwner owner;
  };
  std::vector<Entry> entries() const;

 private:
  struct Slot {
    NodeIndex node = kNoNode;
    PortNum port = 0;
    bool is_base = false;
    std::uint8_t lmc = 0;
  };
  std::vector<Slot> owners_;                    // indexed by LID
  std::vector<std::vector<Lid>> base_by_node_;  // [node][port] -> base LID
};

}  // namespace smd
