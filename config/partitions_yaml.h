// A PartitionsSpec written as the policy's `partitions:` section (config/smd.yaml), for
// `smd import-partitions`: what the loader (config/partitions_section.h) reads back as the same spec.
#pragma once

#include <string>

#include "routing/partitions/partition_spec.h"

namespace smd {

/// YAML text of one top-level mapping `partitions:` holding `spec`: enforcement, allow_both_pkeys and the
/// list, each partition with every key written (members without a membership of their own as a plain
/// keyword or GUID, others as a flow map; GUIDs and P_Keys in hex; MGIDs as compressed IPv6 text). The
/// `where` fields are not written. Ends with a newline.
std::string partitions_yaml(const PartitionsSpec& spec);

}  // namespace smd
