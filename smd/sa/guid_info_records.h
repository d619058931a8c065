// GUIDInfoRecord (IBA vol. 1, 15.2.5.18): Get/GetTable of each endport's GUID table as the SM keeps it
// (block 0 with the port GUID at entry 0, and every block holding an alias), and Set/Delete of alias GUIDs
// (the rules of alias_guids.h).
//
//   Set/Delete without LID and BlockNum in the ComponentMask  -> INSUF_COMPS (0x0600)
//   a LID that names no endport                                -> NO_RECORDS (0x0300)
//   a requester that is not that port and has no SM_Key        -> DENIED (0x0700): a port names its own
//       aliases (a VF's driver asks through its PF's port); only a trusted request (SM_Key = sa.key)
//       changes another port's, else any port could take the GUIDs of any other
//   ComponentMask GUID0..7 (bits 4..11) select the entries; a Set answers the block as held after it,
//   a Delete the block as left.
// Pure: the SA thread calls it with its AliasGuidTable.
#pragma once

#include <optional>
#include <string>

#include "smd/sa/alias_guids.h"
#include "smd/sa/sa_query.h"
#include "smd/sa/sa_snapshot.h"

namespace smd::sa {

/// ComponentMask bits of GUIDInfoRecord (IBA 15.2.5.18).
namespace gir_mask {
inline constexpr std::uint64_t kLid = 1ull << 0;
inline constexpr std::uint64_t kBlockNum = 1ull << 1;
inline constexpr unsigned kFirstGuidBit = 4;  ///< GUID i is bit 4 + i
}  // namespace gir_mask

/// Get / GetTable: for each endport (the one of the LID asked, or all), block 0 and every block that
/// holds an alias, matched on the ComponentMask.
SaAnswer answer_guid_info_records(const SaSnapshot& snap, const SaQuery& q, const AliasGuidTable& aliases);

/// NodeRecord asked by an alias PortGUID (ComponentMask bit 8): the NodeRecord of the port holding that
/// alias, its PortGUID shown as the alias asked (so a VF finds its node by its own GUID). nullopt when the
/// query names no alias (answer it as any NodeRecord).
std::optional<SaAnswer> node_records_by_alias(const SaSnapshot& snap, const SaQuery& q);

/// Set / Delete. `changed`: the table changed (persist it, write the port); `why`: for a refusal or a
/// partly refused Set, a line naming the requester's LID, for the log ("" when all went through).
SaAnswer change_guid_info_record(const SaSnapshot& snap, const SaQuery& q, AliasGuidTable& aliases, bool& changed,
                                 std::string& why);

}  // namespace smd::sa
