// OpenSM's partitions.conf (opensm(8), PARTITION CONFIGURATION) read into a PartitionsSpec, for
// `smd import-partitions`. The whole documented syntax is understood:
//   statement   := definition ':' properties ';'          (a statement may span lines; '#' starts a comment)
//   definition  := [Name][=PKey] {',' flag}                flags: indx0, ipoib, defmember=full|limited|both,
//                                                          and the broadcast group's rate= mtu= sl= scope=
//                                                          (repeatable) Q_Key= TClass= FlowLabel=
//   properties  := items separated by ',', newlines and ':' (so `Name : defmember=limited : ports` works)
//   item        := PortGUID[=full|limited|both] | ALL | ALL_CAS | ALL_SWITCHES | ALL_ROUTERS | SELF (each with
//                  an optional =membership) | defmember=... (for the ports after it) |
//                  mgid=GID {',' group flag}  (the group's flags end at the end of its line)
// and OpenSM's rules are kept: only the low 15 bits of a P_Key count; statements with one P_Key are merged
// into one partition (the first name wins); a port's membership defaults to its statement's defmember
// (limited unless given); an unrecognised membership word counts as limited.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "routing/base/status.h"
#include "routing/partitions/partition_spec.h"

namespace smd {

struct PartitionsImport {
  PartitionsSpec spec;  ///< the file's partitions only (the loader adds the default partition when missing)
  std::vector<std::string> warnings;  ///< "source:line:column: ..." for what was converted by a rule
};

/// Parse partitions.conf text; `source_name` prefixes every message and fills the `where` fields.
/// Warnings (the conversion goes on): a statement without a P_Key, which gets the lowest P_Key base from
/// 0x0001 up that no statement of the file names (in file order; OpenSM generates one too, but which one
/// depends on its run); a P_Key with bit 15 set (dropped, as OpenSM); an unrecognised membership word (taken
/// as limited); a merged statement that names its partition differently; broadcast-group flags without
/// ipoib; `both` (needs partitions.allow_both_pkeys, as OpenSM's allow_both_pkeys).
/// Errors (kInvalidInput "source:line:column: ..."): a statement without ':' or ';', a name that is not
/// valid UTF-8 (YAML holds only Unicode), an unknown flag or
/// keyword, a malformed or out-of-range number, a P_Key of 0 or above 0xffff, GUID 0, an MGID that is not
/// a multicast GID or (IPoIB groups) carries another P_Key, a group flag outside an mgid= line, a file
/// whose statements use up every P_Key.
Result<PartitionsImport> parse_partitions_conf(std::string_view text, const std::string& source_name);

}  // namespace smd
