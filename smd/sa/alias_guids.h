// AliasGuidTable: the alias GUIDs of every port (IBA vol. 1, 14.2.5.5 GUIDInfo, 15.2.5.18 GUIDInfoRecord),
// what SR-IOV virtual functions use as their port GUIDs. A port's GUID table has GUIDCap entries in
// blocks of 8; entry 0 of block 0 is the port GUID itself and is never changed.
//
//   Set (block, mask of the 8 entries, GUIDs):
//     block past GUIDCap                    -> NO_RECORDS (0x0300)
//     entry 0 of block 0 in the mask        -> REQ_INVALID (0x0200)
//     GUID 0 ("SM, assign one")             -> the entry's current alias, else the one this port had at
//                                              that entry before (assignments are remembered), else a new
//                                              one: OUI 00:14:05 (OpenIB) in bits 63:40, sa.alias_guid_byte
//                                              in 39:32, a counter in 31:0, skipping any GUID in use
//     counter exhausted                     -> NO_RESOURCES (0x0100)
//     a GUID another port or entry holds    -> that entry answered 0, nothing changed there (as OpenSM)
//   Delete (block, mask): the masked entries cleared (entry 0 of block 0 stays).
//   The answer is the block as the table now holds it.
//
// Pure: no I/O, no locks; the SA thread owns it, persists to_text() after each change and publishes
// bases() (alias -> port GUID, immutable) for the readers on other threads (PathRecord, NodeRecord).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "routing/base/ids.h"
#include "routing/base/status.h"

namespace smd::sa {

/// Alias GUID -> the port GUID of the port that holds it. Published whole, never edited.
using AliasBases = std::unordered_map<Guid, Guid>;

/// Entries per GUIDInfo block (IBA 14.2.5.5).
inline constexpr unsigned kGuidsPerBlock = 8;
/// The OUI in the GUIDs the SM assigns: OpenIB's, as OpenSM uses.
inline constexpr std::uint64_t kAssignedGuidOui = 0x001405;

/// What a Set or Delete did to one block.
struct AliasChange {
  std::uint16_t status = 0;                  ///< SA status (mad/sa/sa_mad.h), 0 = done
  std::array<Guid, kGuidsPerBlock> block{};  ///< the block as held after it (status 0 only)
  bool changed = false;                      ///< some entry changed: persist, and write the port
  struct Refused {
    unsigned index = 0;  ///< entry index in the port's table
    std::string why;     ///< for the log
  };
  std::vector<Refused> refused;  ///< entries answered 0 (a GUID held elsewhere)
};

class AliasGuidTable {
 public:
  /// `assign_byte`: sa.alias_guid_byte, bits 39:32 of every assigned GUID (OpenSM's sm_assigned_guid).
  explicit AliasGuidTable(std::uint8_t assign_byte = 0) : assign_byte_(assign_byte) {}

  /// GUIDInfoRecord Set on the port `port_guid` whose PortInfo:GUIDCap is `guid_cap` (entries); `mask` bit
  /// i selects entry i of the block (ComponentMask GUIDi). `in_use` says whether a GUID is some port's
  /// own GUID on the subnet (assigned GUIDs avoid those, and a Set of one is refused like a duplicate).
  AliasChange set(Guid port_guid, unsigned guid_cap, unsigned block, std::uint8_t mask,
                  const std::array<Guid, kGuidsPerBlock>& guids, const std::function<bool(Guid)>& in_use);
  /// GUIDInfoRecord Delete: the masked entries of the block cleared. NO_RECORDS past GUIDCap.
  AliasChange erase(Guid port_guid, unsigned guid_cap, unsigned block, std::uint8_t mask);

  /// Block `block` of the port's table as the SM wants it: entry 0 of block 0 is the port GUID, entries
  /// without an alias are 0.
  std::array<Guid, kGuidsPerBlock> block(Guid port_guid, unsigned block) const;
  /// The blocks of the port that hold an alias, ascending (block 0 always first).
  std::vector<unsigned> blocks(Guid port_guid) const;
  /// The port holding alias `guid`, 0 when none does.
  Guid base_of(Guid guid) const;
  /// Every port with an alias, by port GUID: its entries (index = block * 8 + entry; 0 = none).
  const std::map<Guid, std::vector<Guid>>& ports() const { return tables_; }
  /// alias -> port GUID, a fresh immutable copy.
  std::shared_ptr<const AliasBases> bases() const;

  /// The file form: a header line, then one line per alias "PORT_GUID INDEX ALIAS_GUID" and one per
  /// remembered assignment "assigned PORT_GUID INDEX GUID", GUIDs as 0x%016x.
  std::string to_text() const;
  /// Parse to_text()'s form. Errors: kInvalidInput naming `origin`:line and what is wrong (a malformed
  /// line, an index 0 or past 65535, an alias held twice); nothing is half-loaded.
  static Result<AliasGuidTable> from_text(const std::string& text, const std::string& origin, std::uint8_t assign_byte);

 private:
  Guid assign(Guid port_guid, unsigned index, const std::function<bool(Guid)>& in_use);
  void put(Guid port_guid, unsigned index, Guid alias);
  void clear(Guid port_guid, unsigned index);

  std::uint8_t assign_byte_;
  std::uint32_t counter_ = 0;                 // the last counter value handed out
  std::map<Guid, std::vector<Guid>> tables_;  // port GUID -> entries (index 0 unused: the port GUID)
  std::unordered_map<Guid, std::pair<Guid, unsigned>> by_alias_;  // alias -> (port GUID, index)
  std::map<std::pair<Guid, unsigned>, Guid> assigned_;  // what the SM assigned to (port, index), kept after a Delete
};

}  // namespace smd::sa
