// The policy's `partitions:` section (config/smd.yaml documents every key): P_Keys, members, the IPoIB
// broadcast group and further pre-created multicast groups of each partition, and the enforcement on switch
// ports facing CAs. One reader per nested shape, every error at file:line:column as the rest of the loader.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "config/yaml_fields.h"
#include "routing/partitions/partition_spec.h"

namespace smd {

/// Read `partitions` (the section's reader) into `out`, then apply with_default_partition: the default
/// partition 0x7fff exists (ALL=limited, SELF=full when the section has no 0x7fff entry) and SELF is a full
/// member of it. A section without `list` (or with an empty one) means exactly that default partition.
/// Errors recorded in the reader's Diagnostics: a P_Key of 0 or above 0x7fff, a P_Key listed twice (no
/// merging, unlike OpenSM: two entries for one P_Key in a hand-written file are a mistake more often than a
/// plan), an unknown key or value, a member that is neither a keyword, a GUID nor a map of one selector, an
/// MGID that is not a multicast GID or (IPoIB groups) carries another partition's P_Key, values out of range.
void read_partitions(MapReader partitions, PartitionsSpec& out);

/// Whether a partition name is printable as it is: no C0 control character and no DEL. Names go into
/// logs and smctl output, so the policy and import-partitions refuse the others.
bool partition_name_printable(std::string_view name);

/// The YAML spellings: partitions.enforcement (both, in, out, off) and memberships (limited, full, both).
const std::vector<std::string>& enforcement_names();
const std::vector<std::string>& membership_names();
std::string enforcement_name(PartitionEnforcement enforcement);
std::string membership_name(Membership membership);

/// The member keywords (ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF) and the selector each stands for.
const std::vector<std::string>& member_keyword_names();
MemberSelector member_keyword(const std::string& name);    ///< `name` must be one of member_keyword_names()
std::string member_keyword_name(MemberSelector selector);  ///< "" for kPortGuid and kNodeDescription

}  // namespace smd
