// What OpenSM's dump files share: the order they list switches, nodes and ports in, and the words they
// use for node types. OpenSM walks its GUID tables (cl_qmap) keyed by the GUID as it sits in memory in
// network byte order, so on a little-endian host a file lists GUIDs ascending by their byte-reversed value
// (0x...100000 before 0x...200000 before 0x...100002), not by GUID. Tools that diff smd's dumps against
// OpenSM's see the same order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "routing/base/ids.h"
#include "routing/model/topology.h"

namespace smd::dump {

/// The sort key of `guid` in OpenSM's GUID tables (x86-64, little-endian: the GUID byte-reversed).
constexpr std::uint64_t qmap_key(Guid guid) { return __builtin_bswap64(static_cast<std::uint64_t>(guid)); }

/// `items` sorted as OpenSM lists them, `guid_of(item)` giving each one's GUID. Stable.
template <typename T, typename GuidOf>
void sort_as_opensm(std::vector<T>& items, GuidOf guid_of) {
  std::stable_sort(items.begin(), items.end(),
                   [&](const T& a, const T& b) { return qmap_key(guid_of(a)) < qmap_key(guid_of(b)); });
}

/// NodeType as OpenSM's ib_get_node_type_str spells it: "Channel Adapter", "Switch", "Router"
/// ("Unknown" for a value outside IBA's three).
const char* opensm_node_type(NodeType type);

/// NodeType as OpenSM's subnet.lst tags a node: "CA", "SW", "Rt" ("**" for a value outside IBA's three).
const char* opensm_node_tag(NodeType type);

/// A NodeDescription as OpenSM's print_desc holds it (no node name map): cut to 63 bytes, and every byte
/// outside printable ASCII a space, so one node stays on one line of a dump.
std::string opensm_print_desc(const std::string& description);

}  // namespace smd::dump
